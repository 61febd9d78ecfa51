/**
 * Version history with a diff between two versions (the server's `models.diff`), a link to their
 * comparison on the graph (components/compare), opening an older version in the editor, and (for
 * designers) the migration of running processes between the two (components/migrations). State: the
 * two versions compared (`from`, `to`; default: the one before the latest and the latest).
 */
'use client';
import Link from 'next/link';
import { useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import styles from './designer.module.css';
import { Modal } from './modal.tsx';

const when = (ms: number) => new Date(ms).toLocaleString();

function VersionDiff({ id, from, to }: { id: string; from: number; to: number }) {
  const diff = useApiQuery('models.diff', { id, from, to });
  if (diff.error) return <ErrorNote error={diff.error} onRetry={() => diff.refetch()} />;
  if (!diff.data) return <Spinner label="Loading the diff" />;
  const changed = diff.data.lines.filter((l) => l.op !== 'same').length;
  return (
    <div className={styles.diff} aria-label={`Changes from version ${from} to version ${to}`} data-testid="version-diff">
      <p className={styles.muted}>{changed === 0 ? 'The two versions are the same.' : `${changed} changed line${changed > 1 ? 's' : ''}`}</p>
      <pre>
        {diff.data.lines.map((line, i) => (
          <div key={i} className={styles[`diff_${line.op}`]} data-op={line.op}>
            <span className={styles.diffSign} aria-hidden="true">{line.op === 'add' ? '+' : line.op === 'del' ? '−' : ' '}</span>
            <span className="visually-hidden">{line.op === 'add' ? 'added: ' : line.op === 'del' ? 'removed: ' : ''}</span>
            <span data-line>{line.text}</span>
          </div>
        ))}
      </pre>
    </div>
  );
}

export function VersionsDialog({
  id,
  open,
  onClose,
  onOpenVersion,
  onMigrate,
}: {
  id: string;
  open: boolean;
  onClose: () => void;
  onOpenVersion: (ver: number) => void;
  /** Opens the migration of running processes between the two versions compared (designers). */
  onMigrate?: (pair: { from: number; to: number }) => void;
}) {
  const list = useApiQuery('models.versions', { id }, { enabled: open });
  const [pair, setPair] = useState<{ from?: number; to?: number }>({});
  const versions = list.data?.versions ?? [];
  const to = pair.to ?? versions[0]?.ver;
  const from = pair.from ?? versions[1]?.ver ?? to;
  return (
    <Modal open={open} title="Version history" onClose={onClose} wide>
      <div className={styles.dialogBody}>
        {list.error ? <ErrorNote error={list.error} onRetry={() => list.refetch()} /> : null}
        {list.isPending ? <Spinner label="Loading versions" /> : null}
        <table className={styles.versions}>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Deployed</th>
              <th scope="col">By</th>
              <th scope="col">Note</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.ver}>
                <td>v{v.ver}</td>
                <td>{when(v.create_time)}</td>
                <td>{v.deployed_by ?? '—'}</td>
                <td>{v.note || <span className={styles.muted}>no note</span>}</td>
                <td>
                  <input type="radio" name="diff-from" aria-label={`Compare from version ${v.ver}`} checked={from === v.ver} onChange={() => setPair({ from: v.ver, to })} />
                </td>
                <td>
                  <input type="radio" name="diff-to" aria-label={`Compare to version ${v.ver}`} checked={to === v.ver} onChange={() => setPair({ from, to: v.ver })} />
                </td>
                <td>
                  <Button size="sm" variant="ghost" onClick={() => onOpenVersion(v.ver)}>
                    Open v{v.ver}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {from !== undefined && to !== undefined ? (
          <>
            <Link href={`/models/${encodeURIComponent(id)}/compare?from=${from}&to=${to}`} data-testid="compare-on-graph">
              Compare v{from} and v{to} on the graph
            </Link>
            <VersionDiff id={id} from={from} to={to} />
          </>
        ) : null}
        {onMigrate && from !== undefined && to !== undefined && from !== to ? (
          <div className={styles.dialogActions}>
            <Button onClick={() => onMigrate({ from, to })}>
              Migrate running processes from v{from} to v{to}…
            </Button>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
