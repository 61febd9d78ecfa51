/**
 * Node positions the user dragged, kept in the browser per model (localStorage
 * `acts-designer-positions:<model id>`), never in the YAML.
 *
 * State: the positions of the current model, read when the model id changes and written on each
 * drag; `clear` forgets them (back to the automatic layout).
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

export function usePinnedPositions(modelId: string): { pinned: Record<string, Point>; pin(nodeId: string, at: Point): void; clear(): void } {
  const [pinned, setPinned] = useState<Record<string, Point>>({});
  const current = useRef(pinned);
  current.current = pinned;
  useEffect(() => setPinned(read(modelId)), [modelId]);
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
