/**
 * Adding elements: a step (to the workflow, a branch, a catch or a timeout rule), an act of a
 * package (to a step's chain, to a setup list, or into a branch/rule's last step), a branch, a
 * catch or timeout rule of a step or act (its steps are added into it afterwards, like a branch's),
 * and a trigger of the workflow (its `on` list).
 * New elements always get an explicit id, unique in the document, so their node ids are stable.
 */
import type { ElementKind } from '../../../vocab/graph.ts';
import { childrenIn, type Element } from '../../../vocab/model-tree/elements.ts';
import { chooseId, freshId, idBaseOf, takenIds } from './edit-ids.ts';
import type { YAMLMap } from 'yaml';
import {
  childPath,
  ensureList,
  finishEdit,
  insertAt,
  openForEdit,
  type EditResult,
  type EditSession,
  type ListOwner,
} from './edit-document.ts';
import { editError } from './edit-error.ts';
import { defaultsFromSchema } from './schema-defaults.ts';

export interface AddStepOptions {
  /** Node id of the workflow (default), a branch, a catch or a timeout rule. */
  parent?: string;
  /** Position in the parent's `steps` (default: the end). */
  index?: number;
  id?: string;
  name?: string;
}

export interface AddActOptions {
  /**
   * Node id of a step (the act joins its `acts` chain), a branch / catch / timeout rule (the act
   * joins its last step, which is created when there is none), or — with `setup` or `on` — the
   * workflow, a step or an act (the act joins its `setup` list).
   */
  parent: string;
  /** The package, e.g. `acts.core.irq`. */
  uses: string;
  index?: number;
  id?: string;
  name?: string;
  /** Params of the act; default: the `default`s of `schema`. */
  params?: unknown;
  /** The package's params JSON Schema. */
  schema?: Record<string, unknown>;
  /** Put the act in the owner's `setup` list. */
  setup?: boolean;
  /** A hook event (`created`, `completed`, …): the act goes into `setup` as a hook. */
  on?: string;
}

export interface AddBranchOptions {
  /** Node id of the step. */
  step: string;
  if?: string;
  else?: boolean;
  index?: number;
  id?: string;
  name?: string;
}

export interface AddRuleOptions {
  /** Node id of the step or act the rule belongs to. */
  owner: string;
  field: 'catches' | 'timeout';
  /** A catch's error code (absent: it catches any error) or a timeout's duration (`2h`, `1d`). */
  on?: string;
}

const STEP_HOLDERS: readonly ElementKind[] = ['workflow', 'branch', 'catch', 'timeout'];
const SETUP_OWNERS: readonly ElementKind[] = ['workflow', 'step', 'act'];

/** `{ id, name?, …rest }` without the fields left undefined. */
function newElement(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function insertStep(session: EditSession, holder: Element, fields: Record<string, unknown>, index?: number): ListOwner {
  const step = session.doc.createNode(newElement(fields)) as YAMLMap;
  const at = insertAt(ensureList(session.doc, holder, 'steps'), step, index);
  return { path: childPath(holder, 'steps', at), map: step };
}

export function addStep(source: string, options: AddStepOptions = {}): EditResult {
  const session = openForEdit(source);
  const holder = session.find(options.parent ?? 'workflow');
  if (!STEP_HOLDERS.includes(holder.kind)) {
    throw editError('edit.bad_parent', `steps go into the workflow, a branch, a catch or a timeout rule, not a ${holder.kind}`);
  }
  const id = chooseId(takenIds(session.elements), options.id, 'step');
  return finishEdit(session.doc, insertStep(session, holder, { id, name: options.name }, options.index).map);
}

/** Where a new act goes: the owner and its list field. A step holder gets (or reuses) its last step. */
function actTarget(session: EditSession, options: AddActOptions, taken: Set<string>): { owner: ListOwner; field: string } {
  const owner = session.find(options.parent);
  if (options.setup || options.on !== undefined) {
    if (!SETUP_OWNERS.includes(owner.kind)) throw editError('edit.bad_parent', `a ${owner.kind} has no setup list`);
    return { owner, field: 'setup' };
  }
  if (owner.kind === 'step') return { owner, field: 'acts' };
  if (owner.kind === 'workflow' || !STEP_HOLDERS.includes(owner.kind)) {
    throw editError('edit.bad_parent', `acts go into a step, a branch, a catch or a timeout rule (or a setup list), not the ${owner.kind}`);
  }
  const lastStep = childrenIn(owner, 'steps').at(-1);
  if (lastStep) return { owner: lastStep, field: 'acts' };
  return { owner: insertStep(session, owner, { id: freshId(taken, 'step') }), field: 'acts' };
}

export function addAct(source: string, options: AddActOptions): EditResult {
  if (!options.uses?.trim()) throw editError('edit.missing_uses', 'an act needs the package it runs (`uses`)');
  const session = openForEdit(source);
  const taken = takenIds(session.elements);
  const { owner, field } = actTarget(session, options, taken);
  const id = chooseId(taken, options.id, idBaseOf(options.uses));
  const params = options.params ?? defaultsFromSchema(options.schema);
  const act = session.doc.createNode(newElement({ id, name: options.name, uses: options.uses.trim(), on: options.on, params }));
  insertAt(ensureList(session.doc, owner, field), act, options.index);
  return finishEdit(session.doc, act);
}

export function addBranch(source: string, options: AddBranchOptions): EditResult {
  const session = openForEdit(source);
  const step = session.find(options.step);
  if (step.kind !== 'step') throw editError('edit.bad_parent', `branches go into a step, not a ${step.kind}`);
  const id = chooseId(takenIds(session.elements), options.id, 'branch');
  const branch = session.doc.createNode(newElement({ id, name: options.name, if: options.if, else: options.else || undefined }));
  insertAt(ensureList(session.doc, step, 'branches'), branch, options.index);
  return finishEdit(session.doc, branch);
}

export function addRule(source: string, options: AddRuleOptions): EditResult {
  const session = openForEdit(source);
  const owner = session.find(options.owner);
  const what = options.field === 'catches' ? 'catch rules' : 'timeout rules';
  if (owner.kind !== 'step' && owner.kind !== 'act') throw editError('edit.bad_parent', `${what} belong to a step or an act, not a ${owner.kind}`);
  const on = options.on?.trim() || undefined;
  if (options.field === 'timeout' && !on) throw editError('edit.missing_on', 'a timeout needs how long to wait first, e.g. 2h or 1d');
  const rule = session.doc.createNode(newElement({ on }));
  insertAt(ensureList(session.doc, owner, options.field), rule);
  return finishEdit(session.doc, rule);
}

/** Adds a trigger of package `uses` (e.g. `acts.event.schedule`) to the workflow's `on` list. */
export function addTrigger(source: string, uses: string): EditResult {
  if (!uses.trim()) throw editError('edit.missing_uses', 'a trigger needs the package it runs (`uses`), e.g. acts.event.schedule');
  const session = openForEdit(source);
  const workflow = session.find('workflow');
  const trigger = session.doc.createNode({ id: freshId(takenIds(session.elements), idBaseOf(uses)), uses: uses.trim() });
  insertAt(ensureList(session.doc, workflow, 'on'), trigger);
  return finishEdit(session.doc, trigger);
}
