/**
 * The health of each server instance over time: the `health.get` read (with the delivery
 * backlog, re-read every 15 s) plus the `health` room's snapshots (every 5 s), kept as the last
 * `SAMPLES` samples per instance. State: instance → samples (ring, oldest dropped); the backlog
 * is carried into live samples from the last read.
 */
'use client';
import { useEffect, useState } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { liveRoom, useLive } from '../data/live.tsx';
import { useApiQuery } from '../data/use-api.ts';

export const SAMPLES = 40;
const BACKLOG_MS = 15_000;

type Read = ApiOutput<'health.get'>;
export type HealthSample = Omit<Read, 'deliveries' | 'time'> & { deliveries: Read['deliveries'] | null; at: number };

export function useHealthSamples() {
  const [byInstance, setByInstance] = useState<Map<string, HealthSample[]>>(new Map());
  const add = (sample: HealthSample) =>
    setByInstance((prev) => {
      const next = new Map(prev);
      const list = [...(next.get(sample.instance) ?? []), sample].slice(-SAMPLES);
      next.set(sample.instance, list);
      return next;
    });
  const read = useApiQuery('health.get', {}, { refetchInterval: BACKLOG_MS });
  const data = read.data;
  useEffect(() => {
    if (data) add({ ...data, at: data.time });
  }, [data]);
  const backlog = read.data?.deliveries ?? null;
  const live = useLive(read.data ? liveRoom.health : null, read.data?.time ?? null, (event) => {
    const snapshot = event.type === 'health' ? event.data : event.type === 'catchup' ? event.data.health : undefined;
    if (snapshot) add({ ...snapshot, deliveries: backlog, at: Date.now() });
  });
  return { read, byInstance, liveError: live.error };
}
