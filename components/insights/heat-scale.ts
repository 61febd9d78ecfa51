/**
 * The heatmap's figures and colours, apart from React: the metrics a node can be coloured by, the
 * time ranges offered, each node's figures put on its graph node (the server's rows are by engine
 * node id: `insights.nodeStats`'s `nodes` maps YAML paths to them, node-map.ts the paths to graph
 * nodes), and the colour of a value against the largest one shown (pale yellow → deep red).
 */
import type { ApiOutput } from '../data/api-types.ts';
import type { DesignerGraph, ModelNodeId } from '../../vocab/graph.ts';
import { graphNodeByNid } from '../runs/node-map.ts';
import { formatDuration } from '../runs/format.ts';

/** What the server says of one node (`insights.nodeStats` rows: `rate` is errors / passed, null when none passed). */
export type NodeFigures = ApiOutput<'insights.nodeStats'>['stats'][number];

export const HEAT_METRICS = [
  { id: 'now', label: 'At the node now' },
  { id: 'passed', label: 'Passed' },
  { id: 'p50', label: 'Median time spent' },
  { id: 'p95', label: 'p95 time spent' },
  { id: 'rate', label: 'Error rate' },
] as const;

export type HeatMetric = (typeof HEAT_METRICS)[number]['id'];

/** The ranges offered, up to now. */
export const HEAT_RANGES = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  /** From and to chosen by the user (`datetime-local` fields). */
  { id: 'custom', label: 'From … to …', ms: 0 },
] as const;

export type HeatRange = (typeof HEAT_RANGES)[number]['id'];

/** The value a node is coloured by; null when it has none (no task passed: no time, no rate). */
export function metricValue(figures: NodeFigures, metric: HeatMetric): number | null {
  return figures[metric];
}

/** A value in the metric's words: a count, a duration, a percentage. */
export function formatMetric(value: number | null, metric: HeatMetric): string {
  if (value === null) return '—';
  if (metric === 'p50' || metric === 'p95') return spent(value);
  if (metric === 'rate') return `${(value * 100).toFixed(value > 0 && value < 0.1 ? 1 : 0)} %`;
  return String(value);
}

/** A time spent, ms, as the run pages write durations. */
const spent = (ms: number): string => formatDuration(1, 1 + ms);

/** The figures of a node in one line: `3 now · 120 passed · p50 1.2 s · p95 4.0 s · 2 % errors`. */
export function figuresLine(f: NodeFigures): string {
  const times = f.passed > 0 ? ` · p50 ${spent(f.p50 ?? 0)} · p95 ${spent(f.p95 ?? 0)} · ${formatMetric(f.rate, 'rate')} errors` : '';
  return `${f.now} now · ${f.passed} passed${times}`;
}

/** Each graph node's figures (nodes the server has no row for are left out). */
export function figuresByGraphNode(graph: DesignerGraph, nodes: readonly ModelNodeId[], stats: readonly NodeFigures[]): Map<string, NodeFigures> {
  const byNid = graphNodeByNid(graph, nodes);
  const shown = new Map<string, NodeFigures>();
  for (const row of stats) {
    const nodeId = byNid.get(row.nid);
    if (nodeId !== undefined) shown.set(nodeId, row);
  }
  return shown;
}

/** The largest value of the metric among the nodes shown (0 when none has one). */
export function largest(figures: Iterable<NodeFigures>, metric: HeatMetric): number {
  let max = 0;
  for (const f of figures) max = Math.max(max, metricValue(f, metric) ?? 0);
  return max;
}

/** The colour of `value` against `max`: pale yellow at 0, deep red at max (transparent without a value). */
export function heatColour(value: number | null, max: number): string {
  if (value === null) return 'transparent';
  const t = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return `hsl(${Math.round(55 - 55 * t)} 90% ${Math.round(70 - 25 * t)}%)`;
}

/** The legend's gradient (the same scale as heatColour). */
export const HEAT_GRADIENT = `linear-gradient(to right, ${heatColour(0, 1)}, ${heatColour(0.5, 1)}, ${heatColour(1, 1)})`;
