/**
 * An error's code, with a button that copies it (for a support request or a search). State: idle →
 * copied (for a few seconds, said to screen readers) → idle; where the clipboard is refused, the
 * code's text is selected so the person can copy it themselves.
 */
'use client';
import { useEffect, useRef, useState } from 'react';
import styles from './error-note.module.css';

const SHOWN_MS = 2000;

export function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const text = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => {
        if (text.current) window.getSelection()?.selectAllChildren(text.current);
      },
    );
  };
  return (
    <p className={styles.code}>
      Error code <code ref={text}>{code}</code>{' '}
      <button type="button" className={styles.copy} onClick={copy} aria-label={`Copy the error code ${code}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'The error code is copied.' : ''}
      </span>
    </p>
  );
}
