/**
 * The draft's questions — "Discard your draft?" and "Leave without saving?" — and the note over an
 * older version opened beside the user's draft. Stateless: the workspace holds which is open.
 */
'use client';
import Link from 'next/link';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';
import { Modal } from './modal.tsx';

/** Asks before the draft is thrown away; `deployed` names what the designer goes back to (null: an empty workflow). */
export function DiscardDraftDialog({ open, deployed, onClose, onDiscard }: { open: boolean; deployed: { id: string; ver: number } | null; onClose: () => void; onDiscard: () => void }) {
  return (
    <Modal open={open} title="Discard your draft?" onClose={onClose}>
      <div className={styles.dialogBody}>
        <p>{deployed ? `Your changes are thrown away and the designer shows ${deployed.id} v${deployed.ver} as deployed.` : 'Your changes are thrown away and the designer starts again from an empty workflow.'}</p>
        <div className={styles.dialogActions}>
          <Button onClick={onClose}>Keep editing</Button>
          <Button variant="danger" onClick={onDiscard}>
            Discard draft
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** Asks before the designer is left with changes the server does not hold yet (use-leave-guard.ts). */
export function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  return (
    <Modal open={open} title="Leave without saving?" onClose={onStay}>
      <div className={styles.dialogBody}>
        <p>Your latest changes are not saved as a draft yet. Stay a moment and they are saved, or leave and lose them.</p>
        <div className={styles.dialogActions}>
          <Button variant="primary" onClick={onStay}>
            Stay
          </Button>
          <Button variant="danger" onClick={onLeave}>
            Leave without saving
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** Over an older version (`?ver=`) while the user has a draft of the model: it is read-only until they choose to edit it, which replaces the draft. */
export function VersionBesideDraft({ id, ver, savedAt, onEdit }: { id: string; ver: number; savedAt: number; onEdit: () => void }) {
  return (
    <div role="note" aria-label="Your draft is kept" className={styles.versionNote}>
      <p>
        You are looking at {id} v{ver}. Your draft of this model (saved {new Date(savedAt).toLocaleString()}) is kept while you look; editing this version replaces it.
      </p>
      <Link href={`/models/${encodeURIComponent(id)}`}>Open my draft</Link>
      <Button onClick={onEdit}>Edit this version</Button>
    </div>
  );
}
