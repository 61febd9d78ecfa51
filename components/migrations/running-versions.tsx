/**
 * The deploy dialog's guard rail (issue 16): how many processes still run the model's versions
 * (`migrations.running`, read each time the dialog opens), said before a deploy, and offered for
 * migration to the new version after it. Stateless.
 */
'use client';
import type { ApiError } from '../data/api-error.ts';
import { useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import type { MigrationPair } from './migration-dialog.tsx';
import styles from './migrations.module.css';
import { processes } from './words.ts';

export interface RunningVersions {
  versions: ReadonlyArray<{ ver: number; running: number }>;
  total: number;
  error: ApiError | null;
}

const perVersion = (versions: RunningVersions['versions']) => versions.map((v) => `${v.running} on v${v.ver}`).join(', ');

/** The running processes of each version of `mid` (none while `enabled` is false). */
export function useRunningVersions(mid: string, enabled: boolean): RunningVersions {
  const read = useApiQuery('migrations.running', { mid }, { enabled, staleTime: 0, gcTime: 0 });
  const versions = enabled ? (read.data?.versions ?? []) : [];
  return { versions, total: versions.reduce((sum, v) => sum + v.running, 0), error: read.error };
}

/** Before a deploy: the processes that keep running their version after it. */
export function RunningNote({ running }: { running: RunningVersions }) {
  if (running.error) return <ErrorNote error={running.error} title="Could not count the running processes" />;
  if (running.total === 0) return null;
  return (
    <p className={styles.muted} data-testid="running-note">
      {processes(running.total)} still run{running.total === 1 ? 's' : ''} the deployed version{running.versions.length > 1 ? 's' : ''} ({perVersion(running.versions)}). They stay on it after the deploy; you
      can migrate them to the new version next.
    </p>
  );
}

/** After a deploy of version `ver`: the processes still on older versions, and the way to migrate them. */
export function MigrateOffer({ ver, running, onMigrate, onClose }: { ver: number; running: RunningVersions; onMigrate?: (pair: MigrationPair) => void; onClose: () => void }) {
  const older = running.versions.filter((v) => v.ver < ver);
  const total = older.reduce((sum, v) => sum + v.running, 0);
  // the source: the newest older version with running processes
  const from = older.at(-1)?.ver ?? ver - 1;
  return (
    <div className={styles.offer} role="status" data-testid="migrate-offer">
      <p>
        Version {ver} is deployed. {processes(total)} still run{total === 1 ? 's' : ''} older versions ({perVersion(older)}).
      </p>
      <div className={styles.actions}>
        <Button onClick={onClose}>Close</Button>
        {onMigrate ? (
          <Button variant="primary" onClick={() => onMigrate({ from, to: ver })}>
            Migrate them to version {ver}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
