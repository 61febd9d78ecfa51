/**
 * The mapping of a migration plan (mapping.ts): one row per node of the source version with its
 * target picked from the target version's nodes of the same kind (the proposal pre-filled, a
 * suggestion marked), and for a node with no target what happens to a live task there (an act's
 * can be cancelled; any other blocks). The last check's blocked processes are counted on the rows
 * of the nodes they are blocked at. Stateless: the planner holds the choices.
 */
'use client';
import { REMOVED_POLICIES, type RemovedPolicy } from '../../vocab/migration.ts';
import { choiceOf, mayCancel, mayHaveNoTarget, placedLabel, targetsFor, type Choice, type PlanNode, type TargetNode } from './mapping.ts';
import styles from './migrations.module.css';

const NO_TARGET = '';

const POLICY_WORDS: Readonly<Record<RemovedPolicy, string>> = {
  block: 'Block: such processes stay as they are',
  cancel: 'Cancel live tasks here',
};

interface RowProps {
  node: PlanNode;
  targets: readonly TargetNode[];
  choice: Choice;
  blocked: number;
  onChoose: (choice: Choice) => void;
}

function TargetCell({ node, targets, choice, onChoose }: Omit<RowProps, 'blocked'>) {
  const options = targetsFor(node, targets);
  return (
    <select
      className={styles.select}
      aria-label={`Target of ${node.kind} ${node.id}`}
      value={choice.target ?? NO_TARGET}
      onChange={(e) => onChoose({ ...choice, target: e.currentTarget.value === NO_TARGET ? null : e.currentTarget.value })}
    >
      {mayHaveNoTarget(node, targets) ? <option value={NO_TARGET}>— no target —</option> : null}
      {options.map((t) => (
        <option key={t.id} value={t.id}>
          {placedLabel(t)}
        </option>
      ))}
    </select>
  );
}

function RemovedCell({ node, choice, onChoose }: Pick<RowProps, 'node' | 'choice' | 'onChoose'>) {
  if (choice.target !== null) return null;
  if (!mayCancel(node)) return <span className={styles.muted}>Live tasks here block the migration (only acts can be cancelled)</span>;
  return (
    <select className={styles.select} aria-label={`Live tasks of ${node.kind} ${node.id}`} value={choice.removed} onChange={(e) => onChoose({ ...choice, removed: e.currentTarget.value as RemovedPolicy })}>
      {REMOVED_POLICIES.map((p) => (
        <option key={p} value={p}>
          {POLICY_WORDS[p]}
        </option>
      ))}
    </select>
  );
}

function MappingRow({ node, targets, choice, blocked, onChoose }: RowProps) {
  const how = choice.target === node.target ? node.how : 'chosen';
  return (
    <tr data-node={node.id} data-how={how} data-blocked={blocked || undefined}>
      <td>
        <span className={styles.kind}>{node.kind}</span> {placedLabel(node)}
      </td>
      <td>
        <TargetCell node={node} targets={targets} choice={choice} onChoose={onChoose} />
        {how === 'suggested' ? <span className={styles.suggested} title="Proposed by kind and name: check it is the same node">suggested</span> : null}
        {how === 'place' ? <span className={styles.suggested} title="The same element in the same place: it has no YAML id, so each version generates it another one">same place</span> : null}
      </td>
      <td>
        <RemovedCell node={node} choice={choice} onChoose={onChoose} />
        {blocked > 0 ? <span className={styles.blockedHere}>{blocked === 1 ? '1 process blocked here' : `${blocked} processes blocked here`}</span> : null}
      </td>
    </tr>
  );
}

export function MappingTable({
  nodes,
  targets,
  choices,
  blockedAt,
  onChoose,
}: {
  nodes: readonly PlanNode[];
  targets: readonly TargetNode[];
  choices: Readonly<Record<string, Choice>>;
  /** Source node id → how many processes the last check found blocked there. */
  blockedAt: ReadonlyMap<string, number>;
  onChoose: (nid: string, choice: Choice) => void;
}) {
  return (
    <div className={styles.tableBox}>
      <table className={styles.mapping} aria-label="Node mapping">
        <thead>
          <tr>
            <th scope="col">Source node</th>
            <th scope="col">Target node</th>
            <th scope="col">Live tasks</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <MappingRow key={node.id} node={node} targets={targets} choice={choiceOf(node, choices)} blocked={blockedAt.get(node.id) ?? 0} onChoose={(choice) => onChoose(node.id, choice)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
