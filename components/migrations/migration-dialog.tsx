/**
 * Migrating the running processes of one version of a model to another (issue 16; the engine's
 * rules are in server/engine/migrate.ts): the version pair, then the planner of that pair
 * (migration-planner.tsx: mapping, check, migrate, progress). Opened from the version history and
 * after a deploy; for designers (the server checks `design` on check and start).
 *
 * State: the pair (`from`, `to`): the one it was opened with, else the newest version as the
 * target and the newest other version with running processes as the source. A new pair starts
 * a new planner (its mapping and check are of that pair).
 */
'use client';
import { useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { Modal } from '../designer/modal.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { MigrationPlanner } from './migration-planner.tsx';
import styles from './migrations.module.css';
import { VersionPickers, type VersionChoice } from './version-pickers.tsx';

export interface MigrationPair {
  from: number;
  to: number;
}

/** The pair to start with: the given one, filled in from the versions and their running processes. */
function defaultPair(versions: readonly VersionChoice[], initial: Partial<MigrationPair>): MigrationPair | null {
  const to = initial.to ?? versions[0]?.ver;
  if (to === undefined) return null;
  const from = initial.from ?? versions.find((v) => v.ver !== to && v.running > 0)?.ver ?? versions.find((v) => v.ver !== to)?.ver ?? to;
  return { from, to };
}

export function MigrationDialog({ mid, initial, onClose }: { mid: string; initial: Partial<MigrationPair>; onClose: () => void }) {
  const versions = useApiQuery('models.versions', { id: mid }, { staleTime: 0 });
  const running = useApiQuery('migrations.running', { mid }, { staleTime: 0 });
  const [chosen, setChosen] = useState<MigrationPair | null>(null);
  const error = versions.error ?? running.error;
  const choices: VersionChoice[] = (versions.data?.versions ?? []).map((v) => ({ ver: v.ver, running: running.data?.versions.find((r) => r.ver === v.ver)?.running ?? 0 }));
  // the first default is kept: counts read again after a migration must not change the pair under its progress
  if (chosen === null && versions.data && running.data) {
    const first = defaultPair(choices, initial);
    if (first) setChosen(first);
  }
  const pair = chosen;
  return (
    <Modal open title={`Migrate running processes of ${mid}`} onClose={onClose} wide>
      <div className={styles.body}>
        {error ? <ErrorNote error={error} title="The versions could not be read" onRetry={() => void versions.refetch().then(() => running.refetch())} /> : null}
        {!pair && !error ? <Spinner label="Loading versions" /> : null}
        {pair ? <VersionPickers versions={choices} from={pair.from} to={pair.to} onChange={setChosen} /> : null}
        {pair && pair.from === pair.to ? <p className={styles.muted}>Pick two different versions.</p> : null}
        {pair && pair.from !== pair.to ? <MigrationPlanner key={`${pair.from}>${pair.to}`} mid={mid} from={pair.from} to={pair.to} onClose={onClose} /> : null}
      </div>
    </Modal>
  );
}
