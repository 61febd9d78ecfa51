/**
 * The studio's side of the heatmap and the backpressure badges (components/insights): the server's
 * rows by engine node id land on the designer graph's nodes (YAML ids and generated ids alike),
 * values read in their metric's words, the colour scale runs from pale yellow at 0 to red at the
 * largest value shown, and a run's waiting tasks add up per graph node.
 */
import { describe, expect, it } from 'vitest';
import { toGraph } from '../components/designer/model/index.ts';
import { figuresByGraphNode, figuresLine, formatMetric, heatColour, largest, type NodeFigures } from '../components/insights/heat-scale.ts';
import { waitsByNode } from '../components/insights/node-waits.ts';
import { modelNodeIds } from '../server/api/model-node-ids.ts';

const SOURCE = `id: heat
steps:
  - id: s1
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
      - { uses: acts.core.irq, key: unnamed }
`;

const row = (nid: string, fields: Partial<NodeFigures> = {}): NodeFigures => ({ nid, now: 0, passed: 0, errors: 0, p50: null, p95: null, rate: null, ...fields });

describe('heatmap figures on the graph', () => {
  it('puts each row on its graph node: the workflow, a step, an act by YAML id and one by generated id; unknown ids are left out', () => {
    const graph = toGraph(SOURCE);
    const nodes = modelNodeIds(SOURCE);
    const generated = nodes.find((n) => n.path === 'steps[0].acts[1]')!.nid;
    const shown = figuresByGraphNode(graph, nodes, [row('heat', { now: 1 }), row('s1', { now: 2 }), row('ask', { now: 3 }), row(generated, { now: 4 }), row('gone', { now: 5 })]);
    const unnamed = graph.nodes.find((n) => n.path === 'steps[0].acts[1]')!.id;
    expect(Object.fromEntries([...shown].map(([id, f]) => [id, f.now]))).toEqual({ [graph.nodes[0].id]: 1, 'step:s1': 2, 'act:ask': 3, [unnamed]: 4 });
  });

  it('says values in their metric\'s words and colours them against the largest shown', () => {
    expect(formatMetric(3, 'now')).toBe('3');
    expect(formatMetric(1500, 'p95')).toBe('1.5 s');
    expect(formatMetric(0.25, 'rate')).toBe('25 %');
    expect(formatMetric(0.005, 'rate')).toBe('0.5 %');
    expect(formatMetric(null, 'p50')).toBe('—');
    expect(figuresLine(row('a', { now: 2, passed: 4, errors: 1, p50: 650, p95: 4000, rate: 0.25 }))).toBe('2 now · 4 passed · p50 650 ms · p95 4.0 s · 25 % errors');
    expect(figuresLine(row('a', { now: 2 }))).toBe('2 now · 0 passed');
    const figures = [row('a', { p95: 100 }), row('b', { p95: 400 }), row('c')];
    expect(largest(figures, 'p95')).toBe(400);
    expect(heatColour(0, 400)).toBe('hsl(55 90% 70%)');
    expect(heatColour(400, 400)).toBe('hsl(0 90% 45%)');
    expect(heatColour(200, 400)).toBe('hsl(28 90% 58%)');
    expect(heatColour(null, 400)).toBe('transparent');
    expect(heatColour(5, 0)).toBe('hsl(55 90% 70%)');
  });
});

describe('backpressure per graph node', () => {
  it('adds up a run\'s waiting tasks per node and leaves out tasks without a graph node', () => {
    const nodeOf = (nid: string) => ({ ask: 'act:ask', s1: 'step:s1' })[nid];
    const waits = waitsByNode(
      [
        { nid: 'ask', queued: ['exec a'], overflow: false, unacked: 1, failed: 0 },
        { nid: 'ask', queued: [], overflow: true, unacked: 2, failed: 1 },
        { nid: 's1', queued: ['exec b', 'action complete b'], overflow: false, unacked: 0, failed: 0 },
        { nid: 'pushed', queued: ['exec c'], overflow: true, unacked: 0, failed: 0 },
      ],
      nodeOf,
    );
    expect(Object.fromEntries(waits)).toEqual({
      'act:ask': { queued: 1, overflow: 1, unacked: 3, failed: 1 },
      'step:s1': { queued: 2, overflow: 0, unacked: 0, failed: 0 },
    });
  });
});
