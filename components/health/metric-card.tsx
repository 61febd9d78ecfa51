/** One live figure: its name, the current value, a note (e.g. the high-watermark) and a sparkline of recent values. */
import type { ReactNode } from 'react';
import styles from './health.module.css';
import { Sparkline } from './sparkline.tsx';

export function MetricCard({ title, value, note, values, tone }: { title: string; value: number | string; note?: ReactNode; values: number[]; tone?: 'ok' | 'warn' | 'bad' }) {
  return (
    <section className={styles.card} data-tone={tone} aria-label={title}>
      <h3 className={styles.cardTitle}>{title}</h3>
      <p className={styles.value} data-testid={`metric-${title.toLowerCase().replaceAll(' ', '-')}`}>
        {value}
      </p>
      {note ? <p className={styles.note}>{note}</p> : null}
      <Sparkline values={values} label={title} />
    </section>
  );
}
