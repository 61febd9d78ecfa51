import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { layout, toGraph, type GraphLayout, type NodeBox } from '../components/designer/model/index.ts';

const examplesDir = new URL('../examples/', import.meta.url);
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith('.yml') && !f.endsWith('.responses.yml')).sort();
const example = (name: string) => readFileSync(new URL(name, examplesDir), 'utf8');

const overlap = (a: NodeBox, b: NodeBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A workflow of `steps` steps, each with three acts; every fifth step fans out to two branches. */
function bigWorkflow(steps: number): string {
  const lines = ['id: big', 'steps:'];
  for (let i = 0; i < steps; i++) {
    lines.push(`  - id: s${i}`, '    acts:');
    for (let j = 0; j < 3; j++) lines.push(`      - { id: a${i}_${j}, uses: acts.core.irq }`);
    if (i % 5 === 4) {
      lines.push('    branches:');
      for (const side of ['l', 'r']) {
        lines.push(`      - id: b${i}${side}`, `        if: v == '${side}'`, '        steps:');
        lines.push(`          - { id: s${i}${side}, acts: [ { id: a${i}${side}, uses: acts.core.msg } ] }`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const RUNS = 15;
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median wall and CPU time of `fn` after a warm-up (CPU time is less disturbed by a busy machine). */
function measure(fn: () => unknown): { wall: number; cpu: number } {
  for (let i = 0; i < 3; i++) fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    fn();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

describe('layout', () => {
  it.each(exampleFiles)('%s: top to bottom, no two boxes overlap', (file) => {
    const graph = toGraph(example(file));
    const result = layout(graph);
    const boxes = graph.nodes.map((n) => result.nodes[n.id]);
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(overlap(a, b)).toBe(false)));
    for (const edge of graph.edges) {
      if (edge.back || edge.kind === 'trigger') continue;
      expect(result.nodes[edge.target].y, edge.id).toBeGreaterThan(result.nodes[edge.source].y);
    }
    expect(result.width).toBeGreaterThan(0);
    expect(result.height).toBeGreaterThan(0);
  });

  it('is deterministic: the same text always gets the same positions', () => {
    const source = example('loop.yml');
    const runs: GraphLayout[] = [layout(toGraph(source)), layout(toGraph(source)), layout(toGraph(source))];
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    const big = bigWorkflow(20);
    expect(layout(toGraph(big))).toEqual(layout(toGraph(big)));
  });

  it('keeps branches and catch rules left to right in document order', () => {
    const branches = layout(toGraph(example('branches.yml'))).nodes;
    expect(branches['branch:large'].x).toBeLessThan(branches['branch:medium'].x);
    expect(branches['branch:medium'].x).toBeLessThan(branches['branch:small'].x);
    const catches = layout(toGraph(example('catches.yml'))).nodes;
    const rule = (i: number) => catches[`step:pay/acts[0].catches[${i}]`].x;
    expect(rule(0)).toBeLessThan(rule(1));
    expect(rule(1)).toBeLessThan(rule(2));
  });

  it('leaves `next` back edges out of the routed edges and keeps pinned positions', () => {
    const graph = toGraph(example('loop.yml'));
    const result = layout(graph, { pinned: { 'step:finish': { x: 5, y: 7 } } });
    expect(result.edges['next:step:add/acts[0]->step:cond']).toBeUndefined();
    expect(result.edges['flow:workflow->step:cond'].length).toBeGreaterThan(1);
    expect(result.nodes['step:finish']).toMatchObject({ x: 5, y: 7 });
  });

  it('takes node sizes from the caller', () => {
    const result = layout(toGraph(example('send-back.yml')), { nodeSize: () => ({ width: 300, height: 60 }) });
    expect(result.nodes['step:draft']).toMatchObject({ width: 300, height: 60 });
  });

  it('an edit that keeps the shape (a rename) keeps every position; one that changes it lays out again', () => {
    const source = bigWorkflow(10);
    const before = layout(toGraph(source));
    const renamed = layout(toGraph(source.replace('id: s3', 'id: s3\n    name: A much longer name than before')));
    expect(renamed.nodes).toEqual(before.nodes);
    const added = layout(toGraph(`${source}  - { id: extra, acts: [ { id: x1, uses: acts.core.irq } ] }\n`));
    expect(added.nodes['step:extra']).toBeDefined();
    expect(Object.keys(added.nodes)).toHaveLength(Object.keys(before.nodes).length + 2);
    const pinned = layout(toGraph(source), { pinned: { 'step:s3': { x: 5, y: 7 } } });
    expect(pinned.nodes['step:s3']).toMatchObject({ x: 5, y: 7 });
    expect(pinned.nodes['step:s4']).toEqual(before.nodes['step:s4']);
  });

  it.each([
    ['1,000 steps of one act (dagre alone overflowed the stack on this chain)', 1000, 2002],
    ['300 steps of three acts, every fifth with two branches', 300, 1562],
  ])('lays out a long model in segments: %s — no overlaps, top to bottom, the spine straight', (_, steps, nodes) => {
    const lines = ['id: chain', 'steps:'];
    for (let i = 0; i < steps; i++) lines.push(`  - { id: s${i}, acts: [ { id: a${i}, uses: acts.transform.set, params: { v: ${i} } } ] }`);
    const graph = toGraph(nodes === 2002 ? `${lines.join('\n')}\n` : bigWorkflow(steps));
    expect(graph.nodes.length).toBe(nodes);
    const result = layout(graph);
    const boxes = graph.nodes.map((n) => result.nodes[n.id]);
    const sorted = [...boxes].sort((a, b) => a.y - b.y);
    // boxes can only overlap with boxes near them in y: compare each with those that start before it ends
    sorted.forEach((a, i) => {
      for (let j = i + 1; j < sorted.length && sorted[j].y < a.y + a.height; j++) expect(overlap(a, sorted[j])).toBe(false);
    });
    for (const edge of graph.edges) {
      if (edge.back || edge.kind === 'trigger') continue;
      expect(result.nodes[edge.target].y, edge.id).toBeGreaterThan(result.nodes[edge.source].y);
    }
    const centre = (id: string) => result.nodes[id].x + result.nodes[id].width / 2;
    expect(centre(`step:s${steps - 1}`)).toBeCloseTo(centre('step:s0'));
    expect(Math.min(...boxes.map((b) => b.x))).toBeGreaterThanOrEqual(0);
    expect(result.width).toBeGreaterThanOrEqual(Math.max(...boxes.map((b) => b.x + b.width)));
    expect(result.height).toBeGreaterThanOrEqual(Math.max(...boxes.map((b) => b.y + b.height)));
  });

  it('lays out 200+ nodes (prints the time)', () => {
    const source = bigWorkflow(45);
    const graph = toGraph(source);
    expect(graph.nodes.length).toBeGreaterThanOrEqual(200);
    // another text each time (a comment), so the text is parsed, not reused
    let edit = 0;
    const parse = measure(() => toGraph(`${source}# ${edit++}\n`));
    // another shape each time (the gap alternates), so the layout is computed, not reused
    let gap = 0;
    const place = measure(() => layout(graph, { nodeGap: 40 + (gap++ % 2) }));
    const renamed = toGraph(source.replace('id: s0', 'id: s0\n    name: Renamed'));
    const reuse = measure(() => layout(renamed));
    console.log(
      `[designer layout] ${graph.nodes.length} nodes, ${graph.edges.length} edges — median of ${RUNS} warm runs: ` +
        `toGraph ${parse.wall.toFixed(1)} ms (cpu ${parse.cpu.toFixed(1)} ms), layout ${place.wall.toFixed(1)} ms (cpu ${place.cpu.toFixed(1)} ms), ` +
        `layout after a rename ${reuse.wall.toFixed(2)} ms`,
    );
  });
});
