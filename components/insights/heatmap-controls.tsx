/**
 * The heatmap's controls over the designer's canvas: the on/off toggle, and while on the metric,
 * the time range, the legend (pale = none, red = the largest value shown) and when it was read.
 */
'use client';
import { Button } from '../ui/button.tsx';
import { formatTime } from '../runs/format.ts';
import { formatMetric, HEAT_GRADIENT, HEAT_METRICS, HEAT_RANGES, type HeatMetric, type HeatRange } from './heat-scale.ts';
import styles from './insights.module.css';
import type { Heatmap } from './use-heatmap.ts';

export function HeatmapControls({ heat }: { heat: Heatmap }) {
  if (heat.mid === null) return null;
  return (
    <div className={styles.controls} role="group" aria-label="Heatmap" data-testid="heatmap-controls">
      <Button size="sm" variant={heat.on ? 'primary' : 'secondary'} icon="activity" aria-pressed={heat.on} onClick={() => heat.setOn(!heat.on)}>
        Heatmap
      </Button>
      {heat.on ? (
        <>
          <label>
            Colour by{' '}
            <select value={heat.metric} onChange={(e) => heat.setMetric(e.target.value as HeatMetric)} aria-label="Heatmap metric">
              {HEAT_METRICS.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          <select value={heat.range} onChange={(e) => heat.setRange(e.target.value as HeatRange)} aria-label="Heatmap range">
            {HEAT_RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
          <span className={styles.legend} data-testid="heatmap-legend">
            {formatMetric(0, heat.metric)}
            <span className={styles.legendBar} style={{ background: HEAT_GRADIENT }} />
            {formatMetric(heat.max, heat.metric)}
          </span>
          {heat.error ? (
            <span role="alert">Figures not read: {heat.error.message}</span>
          ) : (
            <span className={styles.muted} data-testid="heatmap-time">
              {heat.time ? `read ${formatTime(heat.time)}` : 'reading…'}
              {heat.time && heat.figures.size === 0 ? ' · no runs in this range' : ''}
            </span>
          )}
        </>
      ) : null}
    </div>
  );
}
