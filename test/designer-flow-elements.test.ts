import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { layout, problemsByNode, toGraph } from '../components/designer/model/index.ts';
import { buildEdges, buildNodes, createElementCache, sameShown } from '../components/graph/flow-elements.ts';

/** `steps` steps of two acts each; the last step loops back to the first. */
function chain(steps: number): string {
  const lines = ['id: chain', 'steps:'];
  for (let i = 0; i < steps; i++) {
    lines.push(`  - id: s${i}`, `    name: Step ${i}`, '    acts:', `      - { id: a${i}, uses: acts.core.irq }`, `      - { id: m${i}, uses: acts.core.msg }`);
  }
  lines.push(`    next: s0`);
  return `${lines.join('\n')}\n`;
}

describe('canvas elements', () => {
  const source = chain(66);
  const graph = toGraph(source);
  const placed = layout(graph);

  it('gives every node its box, handles and stable data', () => {
    const cache = createElementCache();
    const nodes = buildNodes(cache, { graph, layout: placed });
    expect(graph.nodes.length).toBeGreaterThanOrEqual(200);
    const step = nodes.find((n) => n.id === 'step:s3')!;
    expect(step).toMatchObject({ type: 'step', width: 220, height: 48, draggable: false });
    expect(step.handles?.map((h) => h.id)).toEqual(['in', 'out', 'back-in', 'back-out']);
    const again = buildNodes(cache, { graph: toGraph(source), layout: placed });
    expect(again.every((node, i) => node === nodes[i])).toBe(true);
  });

  it('rebuilds only the node whose state, problem or selection changed', () => {
    const cache = createElementCache();
    const first = buildNodes(cache, { graph, layout: placed, states: { 'act:a1': 'running' } });
    const second = buildNodes(cache, { graph, layout: placed, states: { 'act:a1': 'completed' }, selected: 'step:s5' });
    const changed = second.filter((node, i) => node !== first[i]).map((node) => node.id);
    expect(changed.sort()).toEqual(['act:a1', 'step:s5']);
    expect(second.find((n) => n.id === 'act:a1')!.data.state).toBe('completed');
    const problems = problemsByNode(graph, [{ path: 'steps[2].acts[0].uses', message: 'unknown package' }]);
    const third = buildNodes(cache, { graph, layout: placed, states: { 'act:a1': 'completed' }, selected: 'step:s5', problems });
    expect(third.filter((node, i) => node !== second[i]).map((n) => [n.id, n.data.problems])).toEqual([['act:a2', ['unknown package']]]);
  });

  it('rebuilds a node whose label or badges changed in a new text, and keeps the nodes that only moved in it (and the lists when nothing changed)', () => {
    const cache = createElementCache();
    const first = buildNodes(cache, { graph, layout: placed });
    const edited = toGraph(source.replace('name: Step 1\n', 'name: Renamed\n').replace('      - { id: a5, uses: acts.core.irq }', "      - { id: a5, uses: acts.core.irq, if: 'ok' }"));
    const second = buildNodes(cache, { graph: edited, layout: placed });
    expect(second.filter((node, i) => node !== first[i]).map((node) => node.id)).toEqual(['step:s1', 'act:a5']);
    expect(second.find((n) => n.id === 'act:a5')!.data.node.badges).toEqual(['if ok']);
    expect(buildEdges(cache, edited)).toBe(buildEdges(cache, graph));
    expect(buildNodes(cache, { graph: edited, layout: placed })).toBe(second);
    expect(sameShown(graph.nodes[3], { ...graph.nodes[3], range: undefined })).toBe(true);
    expect(sameShown(graph.nodes[3], { ...graph.nodes[3], badges: ['else'] })).toBe(false);
  });

  it('draws the loop as a back edge between the right-side handles', () => {
    const edges = buildEdges(createElementCache(), graph);
    const back = edges.find((e) => e.type === 'back')!;
    expect(back).toMatchObject({ source: 'act:m65', target: 'step:s0', sourceHandle: 'back-out', targetHandle: 'back-in', label: 'next' });
  });

  it('builds 200+ nodes fast and a state update faster (prints the times)', () => {
    const cache = createElementCache();
    let start = performance.now();
    buildNodes(cache, { graph, layout: placed });
    buildEdges(cache, graph);
    const full = performance.now() - start;
    start = performance.now();
    buildNodes(cache, { graph, layout: placed, states: { 'act:a10': 'running' } });
    const update = performance.now() - start;
    console.log(`[canvas elements] ${graph.nodes.length} nodes: first build ${full.toFixed(2)} ms, one state update ${update.toFixed(2)} ms`);
    expect(update).toBeLessThan(50);
  });
});
