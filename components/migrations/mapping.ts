/**
 * A migration plan as the dialog edits it (vocab/migration.ts): each source node's chosen target
 * (the server's proposal until the designer picks another; null: no target) and, for a node
 * with no target, what happens to a live task there. Turned into the API's `map` and `removed`
 * fields: only renamed nodes go in `map` (the rest map by id), only cancelled ones in `removed`
 * (`block` is the default).
 */
import type { ApiOutput } from '../data/api-types.ts';
import type { RemovedPolicy } from '../../vocab/migration.ts';

export type MigrationPlanView = ApiOutput<'migrations.plan'>;
export type PlanNode = MigrationPlanView['nodes'][number];
export type TargetNode = MigrationPlanView['targets'][number];

export interface Choice {
  target: string | null;
  removed: RemovedPolicy;
}

/** The designer's changes to the proposal, by source node id. */
export type Choices = Readonly<Record<string, Choice>>;

export function choiceOf(node: PlanNode, choices: Choices): Choice {
  return choices[node.id] ?? { target: node.target, removed: 'block' };
}

/** The target nodes a source node may map to: those of its kind. */
export function targetsFor(node: PlanNode, targets: readonly TargetNode[]): TargetNode[] {
  return targets.filter((t) => t.kind === node.kind);
}

/**
 * Whether "no target" can be chosen: a plan maps a node by id unless it says otherwise, so a node
 * whose id the target version has always has a target.
 */
export function mayHaveNoTarget(node: PlanNode, targets: readonly TargetNode[]): boolean {
  return !targets.some((t) => t.id === node.id);
}

/** Only acts can be cancelled by a migration (MIGRATION_PROBLEMS.cancel_not_act). */
export const mayCancel = (node: PlanNode): boolean => node.kind === 'act';

/** The API's plan fields for the chosen mapping. */
export function planFields(nodes: readonly PlanNode[], choices: Choices): { map: Record<string, string>; removed: Record<string, RemovedPolicy> } {
  const map: Record<string, string> = {};
  const removed: Record<string, RemovedPolicy> = {};
  for (const node of nodes) {
    const choice = choiceOf(node, choices);
    if (choice.target === null) {
      if (choice.removed === 'cancel' && mayCancel(node)) removed[node.id] = 'cancel';
    } else if (choice.target !== node.id) {
      map[node.id] = choice.target;
    }
  }
  return { map, removed };
}

/** A node as a person reads it: its name, and its id when the name is not the id. */
export function nodeLabel(node: { id: string; name: string }): string {
  return node.name && node.name !== node.id ? `${node.name} (${node.id})` : node.id;
}

/** A node with where it is: its package (acts) and the node it sits under. */
export function placedLabel(node: TargetNode): string {
  return [nodeLabel(node), node.uses ? ` · ${node.uses}` : '', node.parent ? ` in ${node.parent}` : ''].join('');
}
