/**
 * The heatmap's controls over the designer's canvas: the on/off toggle, and while on the metric,
 * the time range (a last span, or from … to … in two date-time fields), the legend (pale = none, red = the largest value shown) and when it was read.
 */
'use client';
import { Button } from '../ui/button.tsx';
import { formatTime } from '../runs/format.ts';
import { formatMetric, HEAT_GRADIENT, HEAT_METRICS, HEAT_RANGES } from './heat-scale.ts';
import styles from './insights.module.css';
import type { Heatmap } from './use-heatmap.ts';

/** A select of one of `options` (its label is said to assistive technology). */
function Choice<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: ReadonlyArray<{ id: T; label: string }>; onChange(value: T): void }) {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value as T)} aria-label={label}>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function HeatmapControls({ heat }: { heat: Heatmap }) {
  if (heat.mid === null) return null;
  return (
    <div className={styles.controls} role="group" aria-label="Heatmap" data-testid="heatmap-controls">
      <Button size="sm" variant={heat.on ? 'primary' : 'secondary'} icon="activity" aria-pressed={heat.on} onClick={() => heat.setOn(!heat.on)}>
        Heatmap
      </Button>
      {heat.on ? (
        <>
          <Choice label="Heatmap metric" value={heat.metric} options={HEAT_METRICS} onChange={heat.setMetric} />
          <Choice label="Heatmap range" value={heat.range} options={HEAT_RANGES} onChange={heat.setRange} />
          {heat.range === 'custom' ? (
            <>
              <input type="datetime-local" aria-label="Heatmap from" value={heat.custom.from} onChange={(e) => heat.setCustom({ ...heat.custom, from: e.target.value })} />
              <input type="datetime-local" aria-label="Heatmap to" value={heat.custom.to} onChange={(e) => heat.setCustom({ ...heat.custom, to: e.target.value })} />
            </>
          ) : null}
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
