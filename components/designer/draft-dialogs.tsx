/** The draft's two questions: "Discard your draft?" and "Leave without saving?". Stateless: the workspace holds which is open. */
'use client';
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
