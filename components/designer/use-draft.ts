/**
 * The designer's draft on the server (`drafts.*`): the text and the dragged positions are saved
 * DRAFT_SAVE_DEBOUNCE_MS after the last change, so a reload, a sidebar link or a closed tab loses
 * nothing; the page that opens the model again restores them.
 *
 * State machine: clean (what the page opened with, or what was last deployed or discarded) |
 * saved (the server's draft holds exactly what is shown) → unsaved (changed; a save is due) →
 * saving → saved | failed (the error is shown; the next change tries again). A change while a save
 * is in flight makes it unsaved again; saves never overlap (each waits for the one before).
 * `discard` (also after a deploy) stops what is due, waits for a save in flight, deletes the
 * server's draft and makes the given content the clean baseline. `unsaved` (unsaved, saving or
 * failed, or content that differs from the baseline before the effect has said so) is what the
 * leave guard asks about. A save sends the text with the edits still waiting to be written (`flush`).
 */
'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callMutation } from '../data/api-client.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import type { ApiInput, ApiOutput } from '../data/api-types.ts';
import type { Point } from './model/index.ts';

export const DRAFT_SAVE_DEBOUNCE_MS = 1000;

export type DraftKey = ApiInput<'drafts.get'>['key'];
export type RestoredDraft = NonNullable<ApiOutput<'drafts.get'>>;
export type DraftStatus = 'clean' | 'unsaved' | 'saving' | 'saved' | 'failed';
type Layout = Record<string, Point>;

export interface DraftState {
  status: DraftStatus;
  /** When the server's draft was last saved (epoch ms), if there is one. */
  savedAt: number | null;
  error: ApiError | null;
  /** Changes the server does not hold yet. */
  unsaved: boolean;
  /** Whether the server holds a draft (a discard has something to delete). */
  hasDraft: boolean;
  /** Deletes the server's draft; `text` and `layout` become the clean baseline (a failure is the `failed` state). */
  discard(text: string, layout: Layout): Promise<void>;
}

export interface DraftOptions {
  key: DraftKey;
  text: string;
  /** The text with the edits still waiting to be written (use-designer-doc.ts): what a save sends. */
  flush?: () => string;
  layout: Layout;
  /** The deployed version the text started from (0: never deployed). */
  baseVer: number;
  /** Only designers save drafts. */
  enabled: boolean;
  /** The draft the page restored, if any. */
  restored: RestoredDraft | null;
}

const contentOf = (text: string, layout: Layout) => JSON.stringify([text, layout]);

export function useDraft({ key, text, flush, layout, baseVer, enabled, restored }: DraftOptions): DraftState {
  const [status, setStatus] = useState<DraftStatus>(restored ? 'saved' : 'clean');
  const [savedAt, setSavedAt] = useState<number | null>(restored?.update_time ?? null);
  const [error, setError] = useState<ApiError | null>(null);
  /** The content the server holds (or the clean baseline). */
  const baseline = useRef(contentOf(text, layout));
  const hasDraft = savedAt !== null;
  // a ref, not a dependency: the page passes a new key object on every render, which must not restart the debounce
  const latest = useRef({ key, text, flush, layout, baseVer });
  latest.current = { key, text, flush, layout, baseVer };
  /** The text now, with the edits still waiting to be written. */
  const latestText = () => latest.current.flush?.() ?? latest.current.text;
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  /** Bumped by a discard: a save started before it must not touch the state after it. */
  const generation = useRef(0);
  const current = contentOf(text, layout);

  const save = useCallback(() => {
    const gen = generation.current;
    const { key, layout: savedLayout, baseVer: savedBase } = latest.current;
    const savedText = latestText();
    const content = contentOf(savedText, savedLayout);
    setStatus('saving');
    const run = inFlight.current.then(async () => {
      if (gen !== generation.current) return;
      try {
        const saved = await callMutation('drafts.save', { key, source: savedText, layout: savedLayout, base_ver: savedBase });
        if (gen !== generation.current) return;
        baseline.current = content;
        setSavedAt(saved.update_time);
        setError(null);
        setStatus(contentOf(latestText(), latest.current.layout) === content ? 'saved' : 'unsaved');
      } catch (err) {
        if (gen !== generation.current) return;
        setError(toApiError(err));
        setStatus('failed');
      }
    });
    inFlight.current = run;
  }, []);

  useEffect(() => {
    if (!enabled) return;
    if (current === baseline.current) {
      setStatus((s) => (s === 'unsaved' ? (savedAt !== null ? 'saved' : 'clean') : s));
      return;
    }
    setStatus((s) => (s === 'saving' ? s : 'unsaved'));
    const timer = setTimeout(save, DRAFT_SAVE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [current, enabled, save, savedAt]);

  const discard = useCallback(
    async (text: string, layout: Layout) => {
      generation.current += 1;
      baseline.current = contentOf(text, layout);
      await inFlight.current;
      try {
        await callMutation('drafts.discard', { key: latest.current.key });
        setSavedAt(null);
        setError(null);
        setStatus('clean');
      } catch (err) {
        setError(toApiError(err));
        setStatus('failed');
      }
    },
    [],
  );

  // a change not yet seen by the effect counts too: a link clicked in the render after it asks all the same
  const unsaved = enabled && (status === 'unsaved' || status === 'saving' || status === 'failed' || current !== baseline.current);
  return { status, savedAt, error, unsaved, hasDraft, discard };
}
