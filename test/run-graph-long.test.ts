/**
 * The pure parts of the long-run view (issue 17, item 7): the left-to-right layout, folding
 * finished stretches of steps, and the viewport on the active nodes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layout, toGraph, type NodeBox } from '../components/designer/model/index.ts';
import { activeNodeIds, LEGIBLE_ZOOM, MAX_ZOOM, viewportOn } from '../components/runs/active-region.ts';
import { collapsed, defaultStretches, finishedStretches } from '../components/runs/stretches.ts';

const example = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');

/** `n` top-level steps, each with one act; step 3 has two branches with a step each. */
function chain(n: number): string {
  const lines = ['id: chain', 'steps:'];
  for (let i = 1; i <= n; i++) {
    lines.push(`  - id: s${i}`, `    name: Stage ${i}`, '    acts:', `      - { id: a${i}, uses: acts.core.irq }`);
    if (i === 3) lines.push('    branches:', '      - { id: b3l, steps: [ { id: s3l, acts: [ { id: a3l, uses: acts.core.msg } ] } ] }', '      - { id: b3r, steps: [ { id: s3r } ] }');
  }
  lines.push(`  - id: back`, '    next: s2');
  return `${lines.join('\n')}\n`;
}

/** States of a run of `chain(n)` waiting at step `at`: everything before completed. */
function waitingAt(at: number): Record<string, string> {
  const states: Record<string, string> = { workflow: 'running' };
  for (let i = 1; i < at; i++) Object.assign(states, { [`step:s${i}`]: 'completed', [`act:a${i}`]: 'completed' });
  Object.assign(states, { 'step:s3l': 'completed', 'act:a3l': 'completed', 'branch:b3l': 'completed', 'branch:b3r': 'skipped' });
  states[`step:s${at}`] = 'running';
  states[`act:a${at}`] = 'interrupted';
  return states;
}

const centre = (b: NodeBox) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

describe('left-to-right layout', () => {
  it('is the top-to-bottom layout turned: the flow runs along x, boxes keep their size', () => {
    const graph = toGraph(example('approval-chain.yml'));
    const down = layout(graph);
    const across = layout(graph, { direction: 'LR' });
    for (const edge of graph.edges) {
      if (edge.back || edge.kind !== 'flow') continue;
      expect(centre(across.nodes[edge.target]).x, edge.id).toBeGreaterThan(centre(across.nodes[edge.source]).x);
      expect(centre(down.nodes[edge.target]).y, edge.id).toBeGreaterThan(centre(down.nodes[edge.source]).y);
    }
    for (const node of graph.nodes) {
      expect(across.nodes[node.id].width).toBe(down.nodes[node.id].width);
      expect(across.nodes[node.id].height).toBe(down.nodes[node.id].height);
    }
    expect(across.width).toBeGreaterThan(across.height);
    expect(down.height).toBeGreaterThan(down.width);
  });

  it('keeps pinned positions in either direction', () => {
    const graph = toGraph(example('approval-chain.yml'));
    const at = { x: 5, y: 7 };
    expect(layout(graph, { direction: 'LR', pinned: { 'step:manager': at } }).nodes['step:manager']).toMatchObject(at);
    expect(layout(graph, { pinned: { 'step:manager': at } }).nodes['step:manager']).toMatchObject(at);
  });

  it('lays out a long chain in segments left to right, in order along x', () => {
    const graph = toGraph(chain(200));
    const across = layout(graph, { direction: 'LR' });
    for (let i = 2; i <= 200; i++) expect(across.nodes[`step:s${i}`].x).toBeGreaterThan(across.nodes[`step:s${i - 1}`].x);
  });
});

describe('finished stretches', () => {
  const graph = toGraph(chain(18));

  it('folds the finished steps before the active one, leaving the last as context', () => {
    const states = waitingAt(14);
    expect(finishedStretches(graph, states)).toEqual([{ id: 'stretch:step:s1', steps: Array.from({ length: 12 }, (_, i) => `step:s${i + 1}`) }]);
    const folded = collapsed(graph, finishedStretches(graph, states));
    const ids = new Set(folded.nodes.map((n) => n.id));
    // the steps, their acts, branches and the branches' steps are gone; the context step stays
    for (const id of ['step:s1', 'act:a1', 'step:s3', 'branch:b3l', 'step:s3l', 'act:a3l', 'step:s12', 'act:a12']) expect(ids.has(id), id).toBe(false);
    for (const id of ['workflow', 'step:s13', 'act:a13', 'step:s14', 'workflow:end']) expect(ids.has(id), id).toBe(true);
    const stretch = folded.nodes.find((n) => n.kind === 'stretch')!;
    expect(stretch).toMatchObject({ id: 'stretch:step:s1', label: '12 steps done', badges: ['Stage 1 … Stage 12'] });
    // edges attach to the stretch: in from the workflow, out to the context step; the loop back to s2 lands on it
    const edges = folded.edges.map((e) => `${e.source} -> ${e.target}`);
    expect(edges).toContain('workflow -> stretch:step:s1');
    expect(edges).toContain('stretch:step:s1 -> step:s13');
    expect(edges).toContain('step:back -> stretch:step:s1');
    for (const edge of folded.edges) {
      expect(ids.has(edge.source), edge.id).toBe(true);
      expect(ids.has(edge.target), edge.id).toBe(true);
    }
    expect(new Set(folded.edges.map((e) => e.id)).size).toBe(folded.edges.length);
    expect(() => layout(folded)).not.toThrow();
  });

  it('leaves short stretches, and by default short or finished runs, as they are', () => {
    expect(finishedStretches(graph, waitingAt(3))).toEqual([]); // s1, s2 done: the last is context, one is too few
    expect(finishedStretches(graph, waitingAt(5))).toHaveLength(1);
    expect(collapsed(graph, [])).toBe(graph);
    const done: Record<string, string> = {};
    for (const node of graph.nodes) done[node.id] = 'completed';
    expect(defaultStretches(graph, done)).toEqual([]); // nothing active: a finished run opens whole
    expect(finishedStretches(graph, done)[0].steps).toHaveLength(19); // …but folds on request, every step
    const short = toGraph(chain(6));
    expect(defaultStretches(short, waitingAt(6))).toEqual([]);
    expect(defaultStretches(graph, waitingAt(14))).toHaveLength(1);
  });

  it('folds a 2,500-step run in one pass (no recursion on depth)', () => {
    const big = toGraph(chain(2500));
    const states = waitingAt(2400);
    const folded = collapsed(big, finishedStretches(big, states));
    expect(folded.nodes.find((n) => n.kind === 'stretch')?.label).toBe('2398 steps done');
    expect(folded.nodes.length).toBeLessThan(250);
  });
});

describe('the view on the active nodes', () => {
  const graph = toGraph(chain(18));
  const states = waitingAt(14);
  const laidOut = layout(graph);
  const pane = { width: 620, height: 400 };

  it('finds the running and waiting nodes, not the workflow itself', () => {
    expect(activeNodeIds(graph, states)).toEqual(['step:s14', 'act:a14']);
  });

  it('centres them at a legible zoom', () => {
    const view = viewportOn(laidOut, ['step:s14', 'act:a14'], pane)!;
    expect(view.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(view.zoom).toBeLessThanOrEqual(MAX_ZOOM);
    const act = laidOut.nodes['act:a14'];
    const left = act.x * view.zoom + view.x;
    const top = act.y * view.zoom + view.y;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(left + act.width * view.zoom).toBeLessThanOrEqual(pane.width);
    expect(top + act.height * view.zoom).toBeLessThanOrEqual(pane.height);
  });

  it('shows the last of active nodes too far apart to fit legibly', () => {
    const view = viewportOn(laidOut, ['step:s1', 'act:a14'], pane)!;
    expect(view.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    const act = centre(laidOut.nodes['act:a14']);
    expect(Math.abs(act.y * view.zoom + view.y - pane.height / 2)).toBeLessThan(1);
  });

  it('has nothing to show when no active node is laid out', () => {
    expect(viewportOn(laidOut, [], pane)).toBeNull();
  });
});
