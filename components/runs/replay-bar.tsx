/**
 * The run page's scrubber over the run's history: a slider from the run's start to its end (to
 * now while it runs — the end follows live), the moment shown (time and offset from the start),
 * play/pause at 1×–50×, steps to the previous and next event (also the slider's arrow keys), and
 * "Live" to leave the replay. Dragging pauses playing. Stateless: the moment is the page's
 * (replay-moment.ts), the span and events are use-replay.ts's.
 */
'use client';
import type { KeyboardEvent } from 'react';
import { useId } from 'react';
import { Button } from '../ui/button.tsx';
import { stepTime, type HistoryEvent } from '../../vocab/run-history.ts';
import { formatTime } from './format.ts';
import { REPLAY_SPEEDS, type ReplayMoment, type ReplaySpeed } from './replay-moment.ts';
import styles from './replay.module.css';

export interface ReplayBarProps {
  moment: ReplayMoment;
  span: { from: number; to: number } | null;
  events: readonly HistoryEvent[];
  running: boolean;
}

/** `+1.234 s` / `+2 min 5.0 s` from the run's start. */
function offset(ms: number): string {
  if (ms < 60_000) return `+${(ms / 1000).toFixed(3)} s`;
  const min = Math.floor(ms / 60_000);
  return min < 60 ? `+${min} min ${((ms % 60_000) / 1000).toFixed(1)} s` : `+${Math.floor(min / 60)} h ${min % 60} min`;
}

export function ReplayBar({ moment, span, events, running }: ReplayBarProps) {
  const speedId = useId();
  if (!span) return null;
  const { at, playing, speed } = moment;
  const shown = at ?? span.to;
  const step = (direction: 1 | -1) => {
    // while live, the events are not loaded yet: the first step enters the replay at the end
    const next = at === null ? span.to : stepTime(events, shown, direction);
    if (next !== null) moment.seek(Math.min(span.to, Math.max(span.from, next)));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    moment.setPlaying(false);
    step(e.key === 'ArrowRight' ? 1 : -1);
  };
  return (
    <section className={styles.bar} aria-label="Replay" data-testid="replay-bar" data-at={at ?? ''}>
      <Button size="sm" variant={playing ? 'primary' : 'secondary'} icon={playing ? 'stop' : 'play'} aria-label={playing ? 'Pause' : 'Play'} aria-pressed={playing} onClick={() => moment.setPlaying(!playing)}>
        {playing ? 'Pause' : 'Play'}
      </Button>
      <label htmlFor={speedId} className="visually-hidden">
        Speed
      </label>
      <select id={speedId} className={styles.speed} value={speed} onChange={(e) => moment.setSpeed(Number(e.target.value) as ReplaySpeed)} title="Replay speed">
        {REPLAY_SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
      <Button size="sm" variant="ghost" icon="undo" aria-label="Previous event" title="Go to the previous event" onClick={() => step(-1)} />
      <input
        type="range"
        className={styles.slider}
        aria-label="Moment"
        aria-valuetext={at === null ? 'now (live)' : `${formatTime(at)}, ${offset(at - span.from)}`}
        min={span.from}
        max={Math.max(span.to, span.from + 1)}
        step={1}
        value={shown}
        onChange={(e) => {
          moment.setPlaying(false);
          moment.seek(Number(e.target.value));
        }}
        onKeyDown={onKeyDown}
        data-testid="replay-slider"
      />
      <Button size="sm" variant="ghost" icon="send" aria-label="Next event" title="Go to the next event" onClick={() => step(1)} />
      <span className={styles.when} data-testid="replay-when">
        {at === null ? (running ? 'Live' : 'End (now)') : `${formatTime(at)} · ${offset(at - span.from)}`}
      </span>
      {at !== null ? (
        <Button size="sm" icon="activity" onClick={moment.live} title="Leave the replay: show the run now, live">
          Live
        </Button>
      ) : null}
    </section>
  );
}
