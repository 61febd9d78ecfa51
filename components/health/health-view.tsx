/**
 * The live health page: for each server instance, the lane queue (depth, high-watermark, per-lane
 * bars), the store writer (red while saturated), the delivery backlog, resident processes, the
 * stuck processes (each a link to its run), the recovery of unfinished processes at start and the timer loops, each figure with a sparkline of
 * its recent samples (use-health-samples.ts holds them).
 */
'use client';
import { useNow } from '../inbox/use-now.ts';
import { ago } from '../inbox/waited.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import styles from './health.module.css';
import { LaneBars } from './lane-bars.tsx';
import { LoopTable } from './loop-table.tsx';
import { MetricCard } from './metric-card.tsx';
import { RecoveryCard } from './recovery-card.tsx';
import { StuckCard } from './stuck-card.tsx';
import { useHealthSamples, type HealthSample } from './use-health-samples.ts';

export function HealthView() {
  const { read, byInstance, liveError } = useHealthSamples();
  const now = useNow(5_000);
  if (read.error && byInstance.size === 0) return <ErrorNote error={read.error} title="The health figures could not be read" onRetry={() => read.refetch()} />;
  if (byInstance.size === 0) return <Spinner label="Loading the health figures" />;
  return (
    <div className={styles.view}>
      {liveError ? <ErrorNote error={liveError} title="Live updates are off; figures refresh every 15 s" /> : null}
      {[...byInstance.entries()].map(([instance, samples]) => (
        <InstanceHealth key={instance} instance={instance} samples={samples} now={now} />
      ))}
    </div>
  );
}

function InstanceHealth({ instance, samples, now }: { instance: string; samples: HealthSample[]; now: number }) {
  const last = samples.at(-1)!;
  const series = (pick: (s: HealthSample) => number) => samples.map(pick);
  const backlog = last.deliveries;
  const degraded = last.loops.filter((l) => l.degraded).length;
  return (
    <section className={styles.instance} aria-label={`Instance ${instance}`}>
      <header className={styles.instanceHeader}>
        <h2 className={styles.instanceTitle}>Instance {instance}</h2>
        <p className={styles.updated} aria-live="polite" data-testid="health-updated">
          {samples.length} samples · updated {ago(last.at, Math.max(now, last.at))}
        </p>
      </header>
      <div className={styles.cards}>
        <MetricCard title="Queue depth" value={last.lanes.depth} note={`high-watermark ${last.lanes.highWatermark} · capacity ${last.lanes.capacity}`} values={series((s) => s.lanes.depth)} tone={last.lanes.depth >= last.lanes.capacity ? 'bad' : undefined} />
        <MetricCard
          title="Store writer"
          value={last.writer.depth}
          note={last.writer.saturated ? `saturated · new starts and actions refused until ${Math.floor(last.writer.cap / 2)} · cap ${last.writer.cap}` : `writes waiting · high-watermark ${last.writer.highWatermark} · cap ${last.writer.cap}`}
          values={series((s) => s.writer.depth)}
          tone={last.writer.saturated ? 'bad' : undefined}
        />
        <MetricCard
          title="Delivery backlog"
          value={backlog ? backlog.created : '—'}
          note={backlog ? `not yet acknowledged · ${backlog.error} failed` : 'counted every 15 s'}
          values={samples.filter((s) => s.deliveries).map((s) => s.deliveries!.created)}
          tone={backlog && backlog.error > 0 ? 'warn' : undefined}
        />
        <MetricCard title="Resident processes" value={last.stats.processes} note="held in memory" values={series((s) => s.stats.processes)} />
        <StuckCard stuck={last.stuck} values={series((s) => s.stuck.count)} />
        <RecoveryCard recovery={last.recovery} values={series((s) => s.recovery.loaded)} />
        <section className={styles.card} aria-label="Lanes">
          <h3 className={styles.cardTitle}>Lanes</h3>
          <p className={styles.value}>{last.lanes.workers}</p>
          <p className={styles.note}>workers · {last.lanes.laneCapacity} jobs per lane</p>
          <LaneBars lanes={last.lanes.lanes} capacity={last.lanes.laneCapacity} />
        </section>
        <MetricCard title="Timer loops" value={degraded ? `${degraded} degraded` : 'Healthy'} note={`${last.loops.length} loops`} values={series((s) => s.loops.filter((l) => l.degraded).length)} tone={degraded ? 'bad' : 'ok'} />
      </div>
      <LoopTable loops={last.loops} now={now} />
    </section>
  );
}
