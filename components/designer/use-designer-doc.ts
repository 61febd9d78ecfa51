/**
 * The designer's document: the YAML text (source of truth) with its undo history, and the graph
 * drawn from it.
 *
 * State machine: `history` (see history.ts) changes on every keystroke or graph edit; the graph
 * follows the text after `GRAPH_DEBOUNCE_MS` (immediately for graph edits, undo and redo). When the
 * text has YAML syntax errors, `graph` stays the last good graph and `broken` holds the errors, so
 * the canvas can grey it out. An edit made with a preview (`editSoon`) is drawn from that preview
 * (`preview`) while its text waits for the next paint (pending-edits.ts): the waiting edits are
 * applied once the frame is painted, or first thing when the text is needed — another edit,
 * undo, redo, typing, `flush()`, or the user's next key or click — and dropped by `load`.
 */
'use client';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { idleAfterPaint } from '../ui/after-paint.ts';
import { toGraph, type DesignerGraph, type EditResult } from './model/index.ts';
import { commit, redo, startHistory, undo, type History } from './history.ts';
import { applyEdits, PendingEdits, type TextChange } from './pending-edits.ts';
import type { ModelProblem } from '../../vocab/model-problems.ts';

export const GRAPH_DEBOUNCE_MS = 300;

/** The user's inputs that apply the waiting edits first (in the capture phase, before any handler reads the text). */
const INPUTS = ['pointerdown', 'keydown', 'click', 'beforeinput'] as const;

export interface DesignerDoc {
  /** The text (without the edits waiting for the next paint: `flush()` gives it with them). */
  text: string;
  /** The text the graph was drawn from (lags `text` while typing). */
  graphText: string;
  graph: DesignerGraph;
  /** Syntax errors of `graphText` (the graph is then the last good one). */
  broken: ModelProblem[];
  canUndo: boolean;
  canRedo: boolean;
  /** Edits are drawn whose text is not written yet. */
  pending: boolean;
  /** The text was typed in the editor. */
  type(text: string): void;
  /** Applies a graph edit (a function of the current text); returns its result, or throws. */
  edit(change: TextChange): EditResult;
  /**
   * Draws `preview` of the current graph now and applies `change` to the text after the next
   * paint; `onError` hears if it throws then. A null preview applies the edit at once (as `edit`,
   * returning its result; null when it waits or threw).
   */
  editSoon(change: TextChange, preview: (graph: DesignerGraph) => DesignerGraph | null, onError: (error: unknown) => void): EditResult | null;
  /** Applies the waiting edits now; returns the text with them. */
  flush(): string;
  undo(): void;
  redo(): void;
  /** Loads a new text with a fresh history (another model, version or an import). */
  load(text: string): void;
}

export function useDesignerDoc(initial: string): DesignerDoc {
  const [history, setHistory] = useState<History>(() => startHistory(initial));
  const [graphText, setGraphText] = useState(initial);
  const [preview, setPreview] = useState<DesignerGraph | null>(null);
  const current = useRef(history);
  current.current = history;

  useEffect(() => {
    if (history.present === graphText) return;
    const timer = setTimeout(() => setGraphText(history.present), GRAPH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [history.present, graphText]);

  const parsed = useMemo(() => toGraph(graphText), [graphText]);
  const lastGood = useRef(parsed);
  if (parsed.errors.length === 0) lastGood.current = parsed;
  const graph = preview ?? (parsed.errors.length === 0 ? parsed : lastGood.current);
  /** The graph drawn (a preview made since the last render included). */
  const shown = useRef(graph);
  shown.current = graph;

  const apply = useCallback((next: History, immediate: boolean) => {
    current.current = next;
    setHistory(next);
    if (immediate) setGraphText(next.present);
  }, []);

  const flushRef = useRef<() => string>(() => current.current.present);
  const [pending] = useState(() => new PendingEdits(idleAfterPaint, () => flushRef.current()));
  const flush = useCallback(() => {
    if (pending.size === 0) return current.current.present;
    const { history: next, failed } = applyEdits(current.current, pending.take(), Date.now());
    setPreview(null);
    apply(next, true);
    for (const { edit, error } of failed) edit.onError(error);
    return next.present;
  }, [pending, apply]);
  flushRef.current = flush;

  useEffect(() => {
    const onInput = () => {
      // synchronously: the handlers of this very input then read the text with the edits
      if (pending.size) flushSync(flush);
    };
    for (const type of INPUTS) window.addEventListener(type, onInput, true);
    return () => {
      for (const type of INPUTS) window.removeEventListener(type, onInput, true);
      pending.drop();
    };
  }, [pending, flush]);

  const edit = useCallback(
    (change: TextChange) => {
      flush();
      const result = change(current.current.present);
      apply(commit(current.current, result.source, 'edit', Date.now()), true);
      return result;
    },
    [apply, flush],
  );

  return {
    text: history.present,
    graphText,
    graph,
    broken: parsed.errors,
    canUndo: history.past.length > 0 || preview !== null,
    canRedo: history.future.length > 0 && preview === null,
    pending: preview !== null,
    type: useCallback(
      (text: string) => {
        apply(commit(current.current, text, 'typing', Date.now()), false);
        // the waiting edits go on top of what was typed (they are functions of the text)
        flush();
      },
      [apply, flush],
    ),
    edit,
    editSoon: useCallback(
      (change: TextChange, makePreview: (graph: DesignerGraph) => DesignerGraph | null, onError: (error: unknown) => void) => {
        const next = makePreview(shown.current);
        if (next === null) {
          try {
            return edit(change);
          } catch (error) {
            onError(error);
            return null;
          }
        }
        pending.add({ change, onError });
        shown.current = next;
        setPreview(next);
        return null;
      },
      [pending, edit],
    ),
    flush,
    undo: useCallback(() => {
      flush();
      apply(undo(current.current), true);
    }, [apply, flush]),
    redo: useCallback(() => {
      flush();
      apply(redo(current.current), true);
    }, [apply, flush]),
    load: useCallback(
      (text: string) => {
        pending.drop();
        setPreview(null);
        apply(startHistory(text), true);
      },
      [pending, apply],
    ),
  };
}
