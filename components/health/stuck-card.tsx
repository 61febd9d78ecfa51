/** The "Stuck processes" card of an instance: how many processes nothing can move, each a link to its run. */
import Link from 'next/link';
import { MetricCard } from './metric-card.tsx';
import styles from './health.module.css';

/** Runs linked by name in the note; the rest are counted. */
const LINKED = 5;

export function StuckCard({ stuck, values }: { stuck: { count: number; pids: string[] }; values: number[] }) {
  const shown = stuck.pids.slice(0, LINKED);
  const more = stuck.count - shown.length;
  const note =
    stuck.count === 0 ? (
      'every resident process can move'
    ) : (
      <span className={styles.links}>
        nothing can move:{' '}
        {shown.map((pid) => (
          <Link key={pid} href={`/runs/${encodeURIComponent(pid)}`}>
            {pid}
          </Link>
        ))}
        {more > 0 ? <span>and {more} more</span> : null}
      </span>
    );
  return <MetricCard title="Stuck processes" value={stuck.count} note={note} values={values} tone={stuck.count > 0 ? 'bad' : 'ok'} />;
}
