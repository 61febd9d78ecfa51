/** The timer loops (message retry, schedule trigger): healthy or degraded, failures, backoff, last success and error. */
import type { HealthSample } from './use-health-samples.ts';
import styles from './health.module.css';
import { ago } from '../inbox/waited.ts';
import { Icon } from '../ui/icons.tsx';

export function LoopTable({ loops, now }: { loops: HealthSample['loops']; now: number }) {
  return (
    <table className={styles.table} aria-label="Timer loops">
      <thead>
        <tr>
          <th scope="col">Timer loop</th>
          <th scope="col">Status</th>
          <th scope="col">Failures in a row</th>
          <th scope="col">Backoff (ticks)</th>
          <th scope="col">Last success</th>
          <th scope="col">Last error</th>
        </tr>
      </thead>
      <tbody>
        {loops.map((loop) => (
          <tr key={loop.name}>
            <th scope="row">{loop.name}</th>
            <td className={loop.degraded ? styles.bad : styles.ok}>
              <Icon name={loop.degraded ? 'alert' : 'check'} size={13} /> {loop.degraded ? 'Degraded' : 'Healthy'}
            </td>
            <td>{loop.consecutiveFailures}</td>
            <td>{loop.degraded ? `${loop.backoff} (${loop.skipRemaining} left)` : '—'}</td>
            <td title={loop.lastSuccess ? new Date(loop.lastSuccess).toLocaleString() : undefined}>{loop.lastSuccess ? ago(loop.lastSuccess, now) : 'never'}</td>
            <td>{loop.lastError ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
