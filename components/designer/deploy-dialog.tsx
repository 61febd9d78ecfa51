/**
 * Deploying the text with a version note. State: checking what the deploy would go over
 * (deploy-warnings.tsx) → editing the note (and, when others changed the model since `baseVer`,
 * ticking "Deploy over these changes"; "Only if the saved step tests pass": the server runs them first,
 * docs/step-tests.md) → deploying (busy) → done (closes, tells the parent the new
 * version) | failed (the error stays in the dialog). Processes still running the model's versions are
 * counted before the deploy; when there are any, a done deploy stays open on the offer to migrate
 * them to the new version (components/migrations/running-versions.tsx).
 */
'use client';
import { useId, useState } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import type { MigrationPair } from '../migrations/migration-dialog.tsx';
import { MigrateOffer, RunningNote, useRunningVersions } from '../migrations/running-versions.tsx';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './designer.module.css';
import { DeployWarnings, useDeployCheck } from './deploy-warnings.tsx';
import { Modal } from './modal.tsx';

export interface DeployDialogProps {
  open: boolean;
  source: string;
  /** The model id in the text, and the version the text started from (0: never deployed). */
  mid: string;
  baseVer: number;
  onClose: () => void;
  onDeployed: (model: { id: string; ver: number }) => void;
  /** Opens the migration of the older versions' processes to the new version. */
  onMigrate?: (pair: MigrationPair) => void;
}

export function DeployDialog({ open, source, mid, baseVer, onClose, onDeployed, onMigrate }: DeployDialogProps) {
  const noteId = useId();
  const [note, setNote] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [requireTests, setRequireTests] = useState(false);
  const check = useDeployCheck(mid, baseVer, open);
  const running = useRunningVersions(mid, open && baseVer > 0);
  /** The version just deployed, while the dialog offers to migrate the older versions' processes. */
  const [deployed, setDeployed] = useState<number | null>(null);
  const close = () => {
    setDeployed(null);
    onClose();
  };
  const held = !check.ready || (check.warnings.length > 0 && !overwrite);
  const deploy = useApiMutation('models.deploy', {
    invalidates: ['models.list', 'models.versions'],
    onSuccess: (model) => {
      setNote('');
      setOverwrite(false);
      onDeployed({ id: model.id, ver: model.ver });
      if (running.versions.some((v) => v.ver < model.ver)) setDeployed(model.ver);
      else onClose();
    },
  });
  if (deployed !== null) {
    return (
      <Modal open={open} title="Deploy a new version" onClose={close}>
        <div className={styles.dialogBody}>
          <MigrateOffer ver={deployed} running={running} onMigrate={onMigrate} onClose={close} />
        </div>
      </Modal>
    );
  }
  return (
    <Modal open={open} title="Deploy a new version" onClose={close}>
      <form
        className={styles.dialogBody}
        onSubmit={(e) => {
          e.preventDefault();
          if (held) return;
          deploy.mutate({ source, note: note.trim() || undefined, requireTests: requireTests || undefined });
        }}
      >
        <div className={styles.field}>
          <label htmlFor={noteId}>Version note</label>
          <textarea id={noteId} rows={3} value={note} onChange={(e) => setNote(e.currentTarget.value)} placeholder="What changed, for the version history" autoFocus />
        </div>
        <DeployWarnings warnings={check.warnings} confirmed={overwrite} onConfirm={setOverwrite} />
        <RunningNote running={running} />
        <label className={styles.check}>
          <input type="checkbox" checked={requireTests} onChange={(e) => setRequireTests(e.currentTarget.checked)} /> Only if the saved step tests pass
        </label>
        {check.error ? <ErrorNote error={check.error} title="Could not check for changes by others" /> : null}
        {deploy.error ? <ErrorNote error={deploy.error} title="The model was not deployed" /> : null}
        <div className={styles.dialogActions}>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" icon="send" busy={deploy.isPending} disabled={held}>
            Deploy
          </Button>
        </div>
      </form>
    </Modal>
  );
}
