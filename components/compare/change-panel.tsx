/**
 * The side panel of a version comparison: how many nodes changed, every change as a button that
 * selects its node, and the selected node's changed fields, old → new. Stateless: the comparison
 * owns the selection.
 */
'use client';
import type { ModelDiff, NodeChange, Placement } from '../../vocab/model-diff/index.ts';
import { changeLine } from '../../vocab/model-diff/index.ts';
import styles from './compare.module.css';

export interface ChangePanelProps {
  diff: ModelDiff;
  selected: string | null;
  onSelect: (key: string) => void;
}

/** A field's value as the panel shows it: text as written, anything else as JSON, `—` when not written. */
function shown(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const place = (p: Placement) => `${p.parent ?? 'the workflow'}, ${p.field}[${p.index}]`;

function Details({ change }: { change: NodeChange }) {
  return (
    <section className={styles.details} aria-label={`Changes of ${change.label}`} data-testid="change-details" data-key={change.key} data-status={change.status}>
      <h3>
        {change.kind} {change.label}
      </h3>
      <p className={styles.muted}>
        {change.status}
        {change.nid ? ` · node id ${change.nid}` : ''}
        {change.beforeNid ? ` (was ${change.beforeNid})` : ''}
      </p>
      {change.fields.length ? (
        <table className={styles.fields} data-testid="change-fields">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Old</th>
              <th scope="col">New</th>
            </tr>
          </thead>
          <tbody>
            {change.fields.map((f) => (
              <tr key={f.field} data-field={f.field}>
                <th scope="row">{f.field}</th>
                <td className={styles.before}>{shown(f.before)}</td>
                <td className={styles.after}>{shown(f.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {change.moved ? (
        <p data-testid="change-moved">
          Moved from {place(change.moved.from)} to {place(change.moved.to)}
        </p>
      ) : null}
    </section>
  );
}

export function ChangePanel({ diff, selected, onSelect }: ChangePanelProps) {
  const changes = diff.changes.filter((c) => c.status !== 'unchanged');
  const current = diff.changes.find((c) => c.key === selected);
  const count = (status: NodeChange['status']) => changes.filter((c) => c.status === status).length;
  return (
    <aside className={styles.panel} aria-label="Changes" data-testid="change-panel">
      <p className={styles.summary}>
        {diff.same ? 'The two versions are the same.' : `${count('added')} added · ${count('removed')} removed · ${count('changed')} changed · ${count('moved')} moved`}
      </p>
      {current ? <Details change={current} /> : <p className={styles.muted}>Select a node to see what changed.</p>}
      <ul className={styles.changes}>
        {changes.map((c) => (
          <li key={c.key}>
            <button type="button" className={styles.change} data-status={c.status} aria-current={c.key === selected || undefined} onClick={() => onSelect(c.key)}>
              {changeLine(c)}
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
