/**
 * Node positions the user dragged, kept in the browser per model (localStorage
 * `acts-designer-positions:<model id>`), never in the YAML; the designer's draft carries them to
 * the server too (use-draft.ts), and a restored draft's positions come first.
 *
 * State: the positions of the current model: the restored ones (else this browser's) for the
 * model id the designer opened with, this browser's when the model id changes; written on each drag; `clear` forgets
 * them (back to the automatic layout). A discarded draft leaves them as they are (they are this
 * browser's, by node id).
 */
'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
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

export interface PinnedPositions {
  pinned: Record<string, Point>;
  pin(nodeId: string, at: Point): void;
  clear(): void;
}

export function usePinnedPositions(modelId: string, restored?: Record<string, Point>): PinnedPositions {
  // the designer mounts in the browser only (after its reads), so the first positions are known at once
  const [pinned, setPinned] = useState<Record<string, Point>>(() => restored ?? read(modelId));
  const current = useRef(pinned);
  current.current = pinned;
  const shownFor = useRef(modelId);
  useEffect(() => {
    if (shownFor.current === modelId) return;
    shownFor.current = modelId;
    setPinned(read(modelId));
  }, [modelId]);
  const save = useCallback(
    (next: Record<string, Point>) => {
      current.current = next;
      setPinned(next);
      try {
        if (Object.keys(next).length) window.localStorage.setItem(KEY + modelId, JSON.stringify(next));
        else window.localStorage.removeItem(KEY + modelId);
      } catch {
        // storage full or blocked: positions then last for this visit only
      }
    },
    [modelId],
  );
  return {
    pinned,
    pin: useCallback((nodeId: string, at: Point) => save({ ...current.current, [nodeId]: at }), [save]),
    clear: useCallback(() => save({}), [save]),
  };
}
