/** The queue depth of every lane as a row of small bars (out of the lane capacity). */
import styles from './health.module.css';

export function LaneBars({ lanes, capacity }: { lanes: number[]; capacity: number }) {
  const top = Math.max(1, capacity, ...lanes);
  const width = Math.max(lanes.length * 10, 40);
  const height = 36;
  return (
    <svg className={styles.lanes} viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`Lane queue depths: ${lanes.join(', ')}`}>
      {lanes.map((depth, i) => {
        const h = Math.max(1, (depth / top) * (height - 2));
        return <rect key={i} x={i * 10 + 1} y={height - h} width={8} height={h} rx={1} className={depth > 0 ? styles.laneBusy : styles.laneIdle} />;
      })}
    </svg>
  );
}
