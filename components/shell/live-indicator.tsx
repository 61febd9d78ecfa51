/** The live connection at a glance: a dot + a word, with the full sentence for screen readers and on hover. */
'use client';
import { useLiveStatus } from '../data/live.tsx';
import type { LiveStatus } from '../data/live-client.ts';
import styles from './live-indicator.module.css';

const LOOK: Record<LiveStatus, { word: string; tone: 'on' | 'wait' | 'off'; sentence: string }> = {
  idle: { word: 'Offline', tone: 'off', sentence: 'Live updates are not connected.' },
  connecting: { word: 'Connecting', tone: 'wait', sentence: 'Connecting to live updates…' },
  connected: { word: 'Live', tone: 'on', sentence: 'Live: pages update as things happen.' },
  reconnecting: { word: 'Reconnecting', tone: 'wait', sentence: 'Connection lost: reconnecting, then catching up on what was missed.' },
  denied: { word: 'Offline', tone: 'off', sentence: 'Live updates need you to sign in again.' },
  closed: { word: 'Offline', tone: 'off', sentence: 'Live updates are off.' },
};

export function LiveIndicator() {
  const status = useLiveStatus();
  const look = LOOK[status];
  return (
    <div className={styles.live} data-status={status} title={look.sentence} role="status" aria-live="polite">
      <span className={`${styles.dot} ${styles[look.tone]}`} aria-hidden="true" />
      <span className={styles.word}>{look.word}</span>
      <span className="visually-hidden">{look.sentence}</span>
    </div>
  );
}
