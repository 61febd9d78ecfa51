/**
 * Deploying the text with a version note. State: editing the note → deploying (busy) → done
 * (closes, tells the parent the new version) | failed (the error stays in the dialog).
 */
'use client';
import { useId, useState } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './designer.module.css';
import { Modal } from './modal.tsx';

export function DeployDialog({ open, source, onClose, onDeployed }: { open: boolean; source: string; onClose: () => void; onDeployed: (model: { id: string; ver: number }) => void }) {
  const noteId = useId();
  const [note, setNote] = useState('');
  const deploy = useApiMutation('models.deploy', {
    invalidates: ['models.list', 'models.versions'],
    onSuccess: (model) => {
      setNote('');
      onDeployed({ id: model.id, ver: model.ver });
    },
  });
  return (
    <Modal open={open} title="Deploy a new version" onClose={onClose}>
      <form
        className={styles.dialogBody}
        onSubmit={(e) => {
          e.preventDefault();
          deploy.mutate({ source, note: note.trim() || undefined });
        }}
      >
        <div className={styles.field}>
          <label htmlFor={noteId}>Version note</label>
          <textarea id={noteId} rows={3} value={note} onChange={(e) => setNote(e.currentTarget.value)} placeholder="What changed, for the version history" autoFocus />
        </div>
        {deploy.error ? <ErrorNote error={deploy.error} title="The model was not deployed" /> : null}
        <div className={styles.dialogActions}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" icon="send" busy={deploy.isPending}>
            Deploy
          </Button>
        </div>
      </form>
    </Modal>
  );
}
