/**
 * A modal dialog on the native <dialog> (focus moves in, Escape closes, the page behind is inert).
 * State: open while `open` is true; closing by Escape or the close button calls `onClose`.
 */
'use client';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

export function Modal({ open, title, onClose, children, wide }: { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={`${styles.dialog} ${wide ? styles.wide : ''}`} aria-label={title} onClose={onClose}>
      {open ? (
        <>
          <header className={styles.dialogHeader}>
            <h2>{title}</h2>
            <Button variant="ghost" size="sm" icon="x" aria-label="Close" onClick={onClose} />
          </header>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
