/** The "Recovery" card of an instance: how far loading its unfinished processes at start got. */
import type { RecoveryHealth } from '../../server/runtime/engine-health.ts';
import { MetricCard } from './metric-card.tsx';

export function RecoveryCard({ recovery, values }: { recovery: RecoveryHealth; values: number[] }) {
  const failed = recovery.failed > 0 ? ` · ${recovery.failed} ended in error` : '';
  if (recovery.error) return <MetricCard title="Recovery" value="Failed" note={`${recovery.error} · not ready; restart the server`} values={values} tone="bad" />;
  if (recovery.recovering) {
    return (
      <MetricCard
        title="Recovery"
        value={`${recovery.loaded} / ${recovery.total}`}
        note={`loading unfinished processes${failed} · the API serves meanwhile; actions on processes not loaded yet wait`}
        values={values}
        tone="warn"
      />
    );
  }
  return <MetricCard title="Recovery" value="Done" note={`${recovery.loaded} unfinished processes loaded at start${failed}`} values={values} tone={recovery.failed > 0 ? 'warn' : 'ok'} />;
}
