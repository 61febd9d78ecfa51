/**
 * The result of a structural diff of two versions of a model (`diffModels`): one entry per element
 * of either version, matched by its graph node id (vocab/model-tree/node-ids.ts), with the engine's
 * node id of each side when it is known.
 */
import type { ElementKind, ModelNodeId } from '../graph.ts';
import type { ModelProblem } from '../model-problems.ts';

/**
 * `added`: only in the new version; `removed`: only in the old one; `changed`: a field of its own
 * differs (it may have moved too: see `moved`); `moved`: same node, another owner, list or place
 * among its siblings, nothing else changed; `unchanged`: the same.
 */
export type ChangeStatus = 'added' | 'removed' | 'changed' | 'moved' | 'unchanged';

/** One changed field of a node, with its plain values (absent: the field is not written on that side). */
export interface FieldChange {
  /**
   * The YAML field (`name`, `uses`, `params`, `if`, `next`, `key`, `inputs`, `outputs`, `catches`,
   * `timeout`, `setup`, `on`, …), or `order` when the children it shares with the other version
   * are in another order (the values are then their graph node ids, list by list).
   */
  field: string;
  before?: unknown;
  after?: unknown;
}

/** Where a moved node was and is: its owner's graph node id, the owner's list and the index in it. */
export interface Placement {
  parent?: string;
  field: string;
  index: number;
}

export interface NodeChange {
  /** The graph node id in both versions' graphs (`step:approve`, `step:pay/acts[0]`, `workflow`). */
  key: string;
  status: ChangeStatus;
  kind: ElementKind;
  /** The name, else the YAML id, else an act's `key`, else `key` (of the new version when the node is in it). */
  label: string;
  /** The YAML id, when the author wrote one. */
  elementId?: string;
  /** The engine's node id in the new version (the old one's for a removed node), when known. */
  nid?: string;
  /** The engine's node id in the old version, when it differs from `nid` (an id the engine generated). */
  beforeNid?: string;
  /** YAML path in the new version (absent for a removed node). */
  path?: string;
  /** YAML path in the old version (absent for an added node). */
  beforePath?: string;
  /** The changed fields (empty unless `changed`). */
  fields: FieldChange[];
  /** Set when the node moved (status `moved`, or `changed` and moved). */
  moved?: { from: Placement; to: Placement };
}

export interface ModelDiff {
  /** True when no node is added, removed, changed or moved. */
  same: boolean;
  /** Every node of both versions: the new version's in document order, each removed one after the node that preceded it. */
  changes: NodeChange[];
  /** YAML syntax problems of either text (the diff covers what could be read). */
  problems: (ModelProblem & { side: 'before' | 'after' })[];
}

/** The engine's node id of each YAML path of one version (server: `modelNodeIds`). */
export type NodeIdTable = readonly ModelNodeId[];
