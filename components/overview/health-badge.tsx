/** The server's health at a glance: healthy, busy (queue near capacity, store writer saturated) or degraded (a timer loop backs off, a process is stuck). */
'use client';
import Link from 'next/link';
import { useApiQuery } from '../data/use-api.ts';
import { Icon } from '../ui/icons.tsx';
import styles from './overview.module.css';

interface HealthFigures {
  loops: Array<{ degraded: boolean; name: string }>;
  lanes: { depth: number; capacity: number };
  writer: { saturated: boolean };
  stuck: { count: number };
}

export function healthVerdict(h: HealthFigures): { level: 'ok' | 'warn' | 'bad'; text: string } {
  const degraded = h.loops.filter((l) => l.degraded);
  if (degraded.length) return { level: 'bad', text: `Degraded: ${degraded.map((l) => l.name).join(', ')} backing off` };
  if (h.stuck.count > 0) return { level: 'bad', text: `Degraded: nothing can move ${h.stuck.count === 1 ? '1 process' : `${h.stuck.count} processes`}` };
  if (h.writer.saturated) return { level: 'bad', text: 'Busy: the store writer is saturated; new runs and actions are refused' };
  if (h.lanes.depth >= h.lanes.capacity * 0.8) return { level: 'warn', text: `Busy: ${h.lanes.depth} of ${h.lanes.capacity} queue slots used` };
  return { level: 'ok', text: 'Healthy' };
}

export function HealthBadge() {
  const health = useApiQuery('health.get', {}, { refetchInterval: 15_000 });
  const verdict = health.data ? healthVerdict(health.data) : null;
  return (
    <section className={styles.card} aria-labelledby="health-title">
      <h2 id="health-title" className={styles.cardTitle}>
        Health
      </h2>
      {health.error ? <p className={styles.bad}>The server did not answer: {health.error.message}</p> : null}
      {verdict ? (
        <Link href="/health" className={styles.health} data-level={verdict.level} data-testid="health-badge">
          <Icon name={verdict.level === 'ok' ? 'check' : 'alert'} size={14} /> {verdict.text}
        </Link>
      ) : null}
    </section>
  );
}
