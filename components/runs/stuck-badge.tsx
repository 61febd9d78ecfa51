/** The mark of a run that nothing can move (the engine's stuck-process detector), with since when in its title. */
import { StateBadge } from '../ui/state-badge.tsx';
import { formatDateTime } from './format.ts';

export function StuckBadge({ since }: { since: number }) {
  return (
    <span data-testid="stuck-badge" title={`Stuck since ${formatDateTime(since)}: nothing can move this run; abort it`}>
      <StateBadge state="error" label="Stuck" />
    </span>
  );
}
