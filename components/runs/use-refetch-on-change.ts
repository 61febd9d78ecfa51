/** Reads a query again whenever `version` changes (not on the first render): a task's live state, say. State: the version last seen. */
'use client';
import { useEffect, useRef } from 'react';

export function useRefetchOnChange(refetch: () => unknown, version: unknown): void {
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void refetch();
  }, [version, refetch]);
}
