/**
 * Deleting expired sessions: `deleteExpiredSessions` once, and `sweepExpiredSessions` on a timer
 * for the server (a session is otherwise only deleted when presented or at its user's next login).
 *
 * State of a sweeper: `running` (an unref'd interval; at most one deletion in flight — a tick that
 * finds the previous one still running does nothing) → `stopped` (interval cleared; `stop`
 * resolves once the deletion in flight, if any, has settled).
 */
import { systemClock, type Clock } from '../engine/clock.ts';
import type { ServerStore } from '../store/server-rows.ts';

export type SessionStore = Pick<ServerStore, 'serverQueries'>;

/** Default period of the server's sweep: 10 minutes. */
export const SESSION_SWEEP_MS = 10 * 60_000;

/** Deletes every session whose `expires` is at or before `now`; returns how many. */
export function deleteExpiredSessions(store: SessionStore, now: number): Promise<number> {
  return store.serverQueries.deleteExpiredSessions(now);
}

export interface SessionSweepOptions {
  /** Default SESSION_SWEEP_MS. */
  intervalMs?: number;
  clock?: Clock;
  /** Told the count of each sweep that deleted something. */
  onSwept?: (count: number) => void;
  /** Told a failed sweep (the next tick tries again). */
  onError?: (err: unknown) => void;
}

export interface SessionSweeper {
  stop(): Promise<void>;
}

/** Runs `deleteExpiredSessions` every `intervalMs` until stopped; the timer never keeps the process alive. */
export function sweepExpiredSessions(store: SessionStore, options: SessionSweepOptions = {}): SessionSweeper {
  const clock = options.clock ?? systemClock;
  let inFlight: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const count = await deleteExpiredSessions(store, clock.now());
      if (count > 0) options.onSwept?.(count);
    } catch (err) {
      options.onError?.(err);
    }
  };
  const timer = setInterval(() => {
    inFlight ??= sweep().finally(() => (inFlight = undefined));
  }, options.intervalMs ?? SESSION_SWEEP_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
