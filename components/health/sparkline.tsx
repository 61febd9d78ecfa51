/** A small inline SVG line of the last samples (no chart library), described for screen readers. */
import styles from './health.module.css';

export function Sparkline({ values, label, width = 160, height = 36, max }: { values: number[]; label: string; width?: number; height?: number; max?: number }) {
  const top = Math.max(1, max ?? 0, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const y = (v: number) => height - 2 - (v / top) * (height - 4);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`);
  const line = values.length === 1 ? `M0,${y(values[0]).toFixed(1)} H${width}` : `M${points.join(' L')}`;
  const summary = values.length ? `${label}: last ${values.at(-1)}, highest ${Math.max(...values)} over ${values.length} samples` : `${label}: no samples yet`;
  return (
    <svg className={styles.spark} viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={summary} preserveAspectRatio="none">
      <title>{summary}</title>
      {values.length ? (
        <>
          <path d={`${line} L${width},${height} L0,${height} Z`} className={styles.sparkFill} />
          <path d={line} className={styles.sparkLine} />
        </>
      ) : null}
    </svg>
  );
}
