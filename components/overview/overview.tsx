/** The overview: runs by state (last 24 h), tasks waiting for me (operators), failing schedules, and the health badge. */
'use client';
import { useMe } from '../data/auth.ts';
import { FailingSchedules } from './failing-schedules.tsx';
import { HealthBadge } from './health-badge.tsx';
import styles from './overview.module.css';
import { RunsByState } from './runs-by-state.tsx';
import { WaitingTasks } from './waiting-tasks.tsx';

export function Overview() {
  const me = useMe();
  return (
    <div className={styles.grid}>
      <RunsByState />
      {me.can('operate') ? <WaitingTasks /> : null}
      <FailingSchedules />
      <HealthBadge />
    </div>
  );
}
