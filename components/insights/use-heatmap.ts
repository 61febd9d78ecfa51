/**
 * The heatmap of a model's page: whether it is on, the metric it colours by, the range it covers,
 * and the figures of the graph's nodes (`insights.nodeStats` over the last `range`, read again
 * every REFRESH_MS while on, so "at the node now" follows the runs).
 *
 * State: `on` (off by default), `metric`, `range` and, for a custom range, its `from` and `to`
 * (`datetime-local` values; an empty one leaves that end to the server: the day before `to`, now)
 * — chosen by the user, kept for the page.
 */
'use client';
import { useMemo, useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { fromLocalInput } from '../runs/format.ts';
import type { DesignerGraph } from '../../vocab/graph.ts';
import { figuresByGraphNode, HEAT_RANGES, largest, type HeatMetric, type HeatRange, type NodeFigures } from './heat-scale.ts';

/** How often the figures are read again while the heatmap is on, ms. */
const REFRESH_MS = 5000;

export interface Heatmap {
  /** The deployed model it reads; null for a workflow never deployed (no heatmap). */
  mid: string | null;
  on: boolean;
  setOn(on: boolean): void;
  metric: HeatMetric;
  setMetric(metric: HeatMetric): void;
  range: HeatRange;
  setRange(range: HeatRange): void;
  /** A custom range's ends as `datetime-local` values ('' for none). */
  custom: { from: string; to: string };
  setCustom(custom: { from: string; to: string }): void;
  /** The figures by graph node id (empty while off or loading). */
  figures: ReadonlyMap<string, NodeFigures>;
  /** The largest value of the metric shown (the legend's top). */
  max: number;
  /** When the figures were read (server time), 0 before. */
  time: number;
  error: Error | null;
}

const NONE: ReadonlyMap<string, NodeFigures> = new Map();

export function useHeatmap(mid: string | null, ver: number | undefined, graph: DesignerGraph): Heatmap {
  const [on, setOn] = useState(false);
  const [metric, setMetric] = useState<HeatMetric>('now');
  const [range, setRange] = useState<HeatRange>('24h');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const span = range === 'custom' ? { from: fromLocalInput(custom.from), to: fromLocalInput(custom.to) } : { last: HEAT_RANGES.find((r) => r.id === range)!.ms };
  const stats = useApiQuery('insights.nodeStats', { mid: mid ?? '', ver, ...span }, { enabled: on && mid !== null, refetchInterval: REFRESH_MS, refetchOnWindowFocus: false });
  const data = on ? stats.data : undefined;
  const figures = useMemo(() => (data ? figuresByGraphNode(graph, data.nodes, data.stats) : NONE), [data, graph]);
  const max = useMemo(() => largest(figures.values(), metric), [figures, metric]);
  return { mid, on, setOn, metric, setMetric, range, setRange, custom, setCustom, figures, max, time: data?.time ?? 0, error: on ? stats.error : null };
}
