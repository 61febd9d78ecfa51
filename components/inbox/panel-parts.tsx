/** What the decision panels (decision-bar.tsx, comment-panel.tsx) share: first-field focus, Escape and Enter keys, Confirm and Cancel. */
'use client';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Button, type ButtonProps } from '../ui/button.tsx';
import styles from './task-form.module.css';

/** A ref for the panel's first field, focused when the panel opens. */
export function usePanelFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

export function escapeTo(e: KeyboardEvent, fn: () => void) {
  if (e.key === 'Escape') {
    e.stopPropagation();
    fn();
  }
}

export function enterTo(e: KeyboardEvent, fn: () => void) {
  if (e.key === 'Enter') {
    e.preventDefault();
    e.stopPropagation();
    fn();
  }
}

interface PanelButtonsProps {
  label: string;
  variant: ButtonProps['variant'];
  disabled: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function PanelButtons({ label, variant, disabled, onConfirm, onCancel }: PanelButtonsProps) {
  return (
    <div className={styles.buttons}>
      <Button variant={variant} disabled={disabled} onClick={onConfirm}>
        {label}
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
