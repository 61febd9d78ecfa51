/**
 * Graph edits drawn before their text is written. A property edit whose effect on the graph is
 * known beforehand (a new name is a new label) is drawn at once from a preview of the graph; the
 * edit of the YAML text — a copy of the parse, the change, a print, then the parse of the new
 * text, with the editor, the validation and the draft after it: ~30 ms on a 200-node model —
 * waits until the frame with the change was painted. Anything that needs the text first (another
 * edit, undo, typing, a deploy, an export, the user's next input) applies the waiting edits then.
 *
 * State machine: idle → pending (edits queued in order; one run of `due` scheduled with
 * `schedule`) → idle, by `take` (the queue handed over to be applied; the schedule cancelled) or
 * `drop` (forgotten: another text was loaded).
 */
import type { EditResult } from './model/index.ts';
import { commit, type History } from './history.ts';

/** A graph edit: a function of the text. */
export type TextChange = (source: string) => EditResult;

export interface PendingEdit {
  change: TextChange;
  /** Told when `change` throws (it is then left out; the others still apply). */
  onError: (error: unknown) => void;
}

/** Runs `run` later; returns a cancel function. */
export type Schedule = (run: () => void) => () => void;

export class PendingEdits {
  private queue: PendingEdit[] = [];
  private cancel: (() => void) | null = null;

  /** `due` runs once per pending period, when `schedule` says so. */
  constructor(
    private readonly schedule: Schedule,
    private readonly due: () => void,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  add(edit: PendingEdit): void {
    this.queue.push(edit);
    this.cancel ??= this.schedule(() => {
      this.cancel = null;
      this.due();
    });
  }

  /** The queued edits, in order; the queue is then empty and nothing is scheduled. */
  take(): PendingEdit[] {
    const edits = this.queue;
    this.drop();
    return edits;
  }

  drop(): void {
    this.queue = [];
    this.cancel?.();
    this.cancel = null;
  }
}

/** What applying the waiting edits gave: the history with each edit that worked, and those that threw. */
export interface Applied {
  history: History;
  failed: { edit: PendingEdit; error: unknown }[];
}

/**
 * Applies `edits` in order to `history`, each one undo step; an edit that throws is left out (the
 * caller tells its `onError` once the text is set, so what the text holds is never half done).
 */
export function applyEdits(history: History, edits: readonly PendingEdit[], at: number): Applied {
  let next = history;
  const failed: Applied['failed'] = [];
  for (const edit of edits) {
    try {
      next = commit(next, edit.change(next.present).source, 'edit', at);
    } catch (error) {
      failed.push({ edit, error });
    }
  }
  return { history: next, failed };
}
