/**
 * Node positions the user dragged, never in the YAML. The layout of a deployed model is kept in
 * the browser per model (localStorage `acts-designer-positions:<model id>`); a designer's drags
 * since then belong to their draft (use-draft.ts saves them with the text) until a deploy makes
 * them the model's layout here (`commit`) or a discard goes back to it (`reset`). Someone who
 * cannot design keeps no draft: their drags are the browser's layout at once.
 *
 * State: the positions shown: the restored draft's, else this browser's layout of the model;
 * changed by each drag (written to the browser only when `persist`); `commit` writes them,
 * `reset` reads them back.
 */
'use client';
import { useCallback, useRef, useState } from 'react';
import type { Point } from './model/index.ts';

const KEY = 'acts-designer-positions:';

function read(modelId: string): Record<string, Point> {
  try {
    const raw = window.localStorage.getItem(KEY + modelId);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Point>) : {};
  } catch {
    return {};
  }
}

function write(modelId: string, positions: Record<string, Point>): void {
  try {
    if (Object.keys(positions).length) window.localStorage.setItem(KEY + modelId, JSON.stringify(positions));
    else window.localStorage.removeItem(KEY + modelId);
  } catch {
    // storage full or blocked: positions then last for this visit only
  }
}

export interface PinnedPositions {
  pinned: Record<string, Point>;
  pin(nodeId: string, at: Point): void;
  /** The positions shown become this browser's layout of `modelId` (after a deploy). */
  commit(modelId: string): void;
  /** Back to this browser's layout of `modelId` (after a discard; null: a workflow never deployed has none); returns it. */
  reset(modelId: string | null): Record<string, Point>;
}

/** `persist`: drags are written to the browser at once (no draft keeps them). */
export function usePinnedPositions(modelId: string, restored: Record<string, Point> | undefined, persist: boolean): PinnedPositions {
  // the designer mounts in the browser only (after its reads), so the first positions are known at once
  const [pinned, setPinned] = useState<Record<string, Point>>(() => restored ?? read(modelId));
  const current = useRef(pinned);
  current.current = pinned;
  const show = useCallback(
    (next: Record<string, Point>, store: boolean) => {
      current.current = next;
      setPinned(next);
      if (store) write(modelId, next);
    },
    [modelId],
  );
  return {
    pinned,
    pin: useCallback((nodeId: string, at: Point) => show({ ...current.current, [nodeId]: at }, persist), [show, persist]),
    commit: useCallback((id: string) => write(id, current.current), []),
    reset: useCallback(
      (id: string | null) => {
        const layout = id === null ? {} : read(id);
        show(layout, false);
        return layout;
      },
      [show],
    ),
  };
}
