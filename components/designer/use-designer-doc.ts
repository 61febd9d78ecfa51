/**
 * The designer's document: the YAML text (source of truth) with its undo history, and the graph
 * drawn from it.
 *
 * State machine: `history` (see history.ts) changes on every keystroke or graph edit; the graph
 * follows the text after `GRAPH_DEBOUNCE_MS` (immediately for graph edits, undo and redo). When the
 * text has YAML syntax errors, `graph` stays the last good graph and `broken` holds the errors, so
 * the canvas can grey it out.
 */
'use client';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toGraph, type DesignerGraph, type EditResult } from './model/index.ts';
import { commit, redo, startHistory, undo, type History } from './history.ts';
import type { ModelProblem } from '../../vocab/model-problems.ts';

export const GRAPH_DEBOUNCE_MS = 300;

export interface DesignerDoc {
  text: string;
  /** The text the graph was drawn from (lags `text` while typing). */
  graphText: string;
  graph: DesignerGraph;
  /** Syntax errors of `graphText` (the graph is then the last good one). */
  broken: ModelProblem[];
  canUndo: boolean;
  canRedo: boolean;
  /** The text was typed in the editor. */
  type(text: string): void;
  /** Applies a graph edit (a function of the current text); returns its result, or throws. */
  edit(change: (source: string) => EditResult): EditResult;
  undo(): void;
  redo(): void;
  /** Loads a new text with a fresh history (another model, version or an import). */
  load(text: string): void;
}

export function useDesignerDoc(initial: string): DesignerDoc {
  const [history, setHistory] = useState<History>(() => startHistory(initial));
  const [graphText, setGraphText] = useState(initial);
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

  const apply = useCallback((next: History, immediate: boolean) => {
    current.current = next;
    setHistory(next);
    if (immediate) setGraphText(next.present);
  }, []);

  return {
    text: history.present,
    graphText,
    graph: parsed.errors.length === 0 ? parsed : lastGood.current,
    broken: parsed.errors,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    type: useCallback((text: string) => apply(commit(current.current, text, 'typing', Date.now()), false), [apply]),
    edit: useCallback(
      (change: (source: string) => EditResult) => {
        const result = change(current.current.present);
        apply(commit(current.current, result.source, 'edit', Date.now()), true);
        return result;
      },
      [apply],
    ),
    undo: useCallback(() => apply(undo(current.current), true), [apply]),
    redo: useCallback(() => apply(redo(current.current), true), [apply]),
    load: useCallback((text: string) => apply(startHistory(text), true), [apply]),
  };
}
