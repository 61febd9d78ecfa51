import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toGraph, type DesignerGraph, type EdgeKind, type GraphNode } from '../components/designer/model/index.ts';
import { loadModel } from '../server/engine/model/index.ts';

const examplesDir = new URL('../examples/', import.meta.url);
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith('.yml') && !f.endsWith('.responses.yml')).sort();
const example = (name: string) => readFileSync(new URL(name, examplesDir), 'utf8');

const node = (graph: DesignerGraph, id: string): GraphNode => {
  const found = graph.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id} in ${graph.nodes.map((n) => n.id).join(', ')}`);
  return found;
};
const edgesOf = (graph: DesignerGraph, kind: EdgeKind) => graph.edges.filter((e) => e.kind === kind).map((e) => `${e.source} -> ${e.target}`);

describe('toGraph: every example', () => {
  it.each(exampleFiles)('%s: a graph whose ids are unique and whose edges join existing nodes', (file) => {
    const graph = toGraph(example(file));
    expect(graph.errors).toEqual([]);
    const ids = graph.nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(graph.edges.map((e) => e.id)).size).toBe(graph.edges.length);
    for (const edge of graph.edges) {
      expect(ids).toContain(edge.source);
      expect(ids).toContain(edge.target);
    }
    expect(graph.nodes[0]).toMatchObject({ id: 'workflow', kind: 'start' });
    expect(graph.nodes.at(-1)).toMatchObject({ id: 'workflow:end', kind: 'end' });
    // every node but the start and the triggers has a way in
    const targets = new Set(graph.edges.map((e) => e.target));
    for (const n of graph.nodes) if (n.kind !== 'start' && n.kind !== 'trigger') expect(targets, n.id).toContain(n.id);
  });

  it('counts nodes and edges of the hand-checked examples', () => {
    const counts = Object.fromEntries(
      ['approval-chain.yml', 'branches.yml', 'loop.yml', 'catches.yml', 'subflow.yml', 'hooks.yml', 'timeout-escalation.yml'].map((f) => {
        const g = toGraph(example(f));
        return [f, [g.nodes.length, g.edges.length]];
      }),
    );
    expect(counts).toEqual({
      'approval-chain.yml': [7, 6],
      'branches.yml': [12, 13],
      'loop.yml': [8, 8],
      'catches.yml': [15, 14],
      'subflow.yml': [7, 6],
      'hooks.yml': [10, 9],
      'timeout-escalation.yml': [13, 12],
    });
  });
});

describe('toGraph: nodes and edges', () => {
  it('approval-chain: steps in order, acts inside them, the completed hook on the workflow', () => {
    const graph = toGraph(example('approval-chain.yml'));
    expect(graph.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['workflow', 'start', 'Expense approval'],
      ['setup[0]', 'hook', 'notify'],
      ['step:manager', 'step', 'Manager approval'],
      ['step:manager/acts[0]', 'act', 'manager_approve'],
      ['step:director', 'step', 'Director approval'],
      ['step:director/acts[0]', 'act', 'director_approve'],
      ['workflow:end', 'end', 'End'],
    ]);
    expect(edgesOf(graph, 'flow')).toEqual([
      'workflow -> step:manager',
      'step:manager -> step:manager/acts[0]',
      'step:manager/acts[0] -> step:director',
      'step:director -> step:director/acts[0]',
      'step:director/acts[0] -> workflow:end',
    ]);
    expect(graph.edges.find((e) => e.kind === 'hook')).toMatchObject({ source: 'workflow', target: 'setup[0]', label: 'completed' });
    expect(node(graph, 'setup[0]')).toMatchObject({ on: 'completed', badges: ['on completed'], uses: 'acts.core.msg', key: 'notify' });
    expect(node(graph, 'step:director/acts[0]')).toMatchObject({ parent: 'step:director', index: 0, path: 'steps[1].acts[0]' });
  });

  it('branches: fan-out with if/else labels and badges, each branch joining the end', () => {
    const graph = toGraph(example('branches.yml'));
    expect(graph.edges.filter((e) => e.kind === 'branch').map((e) => [e.target, e.label])).toEqual([
      ['branch:large', 'if amount >= 1000'],
      ['branch:medium', 'if amount >= 100 && amount < 1000'],
      ['branch:small', 'else'],
    ]);
    expect(edgesOf(graph, 'join')).toEqual([
      'step:board/acts[0] -> workflow:end',
      'step:manager/acts[0] -> workflow:end',
      'step:auto/acts[0] -> workflow:end',
    ]);
    expect(node(graph, 'branch:small')).toMatchObject({ isElse: true, badges: ['else'] });
    expect(node(graph, 'branch:large')).toMatchObject({ condition: 'amount >= 1000', badges: ['if amount >= 1000'] });
  });

  it('loop: `next` is a back edge from the end of the looping step, and the loop body does not join', () => {
    const graph = toGraph(example('loop.yml'));
    expect(graph.edges.filter((e) => e.kind === 'next')).toEqual([
      { id: 'next:step:add/acts[0]->step:cond', kind: 'next', source: 'step:add/acts[0]', target: 'step:cond', label: 'next', back: true },
    ]);
    expect(edgesOf(graph, 'join')).toEqual(['step:finish -> workflow:end']);
    expect(node(graph, 'step:add').badges).toEqual(['next → cond']);
  });

  it('a forward `next` is not a back edge and replaces the flow to the following step', () => {
    const graph = toGraph('id: w\nsteps:\n  - { id: a, next: c }\n  - { id: b }\n  - { id: c }\n');
    expect(graph.edges.find((e) => e.kind === 'next')).toMatchObject({ source: 'step:a', target: 'step:c', back: false });
    expect(edgesOf(graph, 'flow')).toEqual(['workflow -> step:a', 'step:b -> step:c', 'step:c -> workflow:end']);
  });

  it('catches and timeouts: attached nodes with their `on` as the edge label, their steps below them', () => {
    const catches = toGraph(example('catches.yml'));
    const charge = 'step:pay/acts[0]';
    expect(catches.edges.filter((e) => e.kind === 'catch').map((e) => [e.source, e.target, e.label])).toEqual([
      [charge, `${charge}.catches[0]`, 'card_declined'],
      [charge, `${charge}.catches[1]`, 'fraud_suspected'],
      [charge, `${charge}.catches[2]`, 'any error'],
    ]);
    expect(node(catches, `${charge}.catches[2]`)).toMatchObject({ kind: 'catch', label: 'catch any error', parent: charge });
    expect(edgesOf(catches, 'flow')).toContain(`${charge}.catches[0] -> step:ask_other_card`);

    const timeouts = toGraph(example('timeout-escalation.yml'));
    expect(timeouts.edges.filter((e) => e.kind === 'timeout').map((e) => e.label)).toEqual(['2s', '5s', '8s']);
    expect(node(timeouts, 'step:approve/acts[0].timeout[1]')).toMatchObject({ kind: 'timeout', on: '5s', label: 'timeout 5s' });
  });

  it('subflow acts name their target model', () => {
    const graph = toGraph(example('subflow.yml'));
    expect(node(graph, 'step:prepare/acts[1]')).toMatchObject({ uses: 'acts.core.subflow', subflow: 'subflow-child', badges: ['subflow → subflow-child'] });
  });

  it('hooks of the workflow and of a step, setup acts without `on` as a chain', () => {
    const hooks = toGraph(example('hooks.yml'));
    expect(hooks.edges.filter((e) => e.kind === 'hook').map((e) => [e.source, e.label])).toEqual([
      ['workflow', 'created'],
      ['workflow', 'step'],
      ['workflow', 'completed'],
      ['step:work', 'before_update'],
      ['step:work', 'updated'],
    ]);
    const setup = toGraph('id: w\nsetup:\n  - { id: prepare, uses: acts.transform.set, params: { a: 1 } }\nsteps:\n  - { id: s }\n');
    expect(node(setup, 'act:prepare').kind).toBe('act');
    expect(setup.edges.map((e) => `${e.kind} ${e.source} -> ${e.target}`)).toEqual([
      'setup workflow -> act:prepare',
      'flow workflow -> step:s',
      'flow act:prepare -> workflow:end',
      'flow step:s -> workflow:end',
    ]);
  });

  it('triggers point at the workflow start', () => {
    const graph = toGraph(
      "id: w\non:\n  - { id: daily, uses: acts.event.schedule, cron: '0 0 8 * * *' }\n  - { id: go, name: Start now, uses: acts.event.manual }\nsteps:\n  - { id: s }\n",
    );
    expect(graph.nodes.filter((n) => n.kind === 'trigger').map((n) => [n.id, n.label, n.uses])).toEqual([
      ['trigger:daily', 'daily', 'acts.event.schedule'],
      ['trigger:go', 'Start now', 'acts.event.manual'],
    ]);
    expect(edgesOf(graph, 'trigger')).toEqual(['trigger:daily -> workflow', 'trigger:go -> workflow']);
  });

  it('branch needs are a badge and part of the fan-out label', () => {
    const graph = toGraph('id: w\nsteps:\n  - id: s\n    branches:\n      - { id: a, if: x }\n      - { id: b, needs: [a], if: y }\n');
    expect(node(graph, 'branch:b')).toMatchObject({ needs: ['a'], badges: ['if y', 'needs a'] });
    expect(graph.edges.find((e) => e.target === 'branch:b')?.label).toBe('needs a · if y');
  });

  it('an empty document is a workflow that goes straight to its end', () => {
    const graph = toGraph('');
    expect(graph.nodes.map((n) => n.id)).toEqual(['workflow', 'workflow:end']);
    expect(graph.edges.map((e) => e.id)).toEqual(['flow:workflow->workflow:end']);
  });
});

describe('toGraph: ids and source ranges', () => {
  it('uses `<kind>:<id>` for unique ids, anchored paths below them, full paths without an anchor', () => {
    const graph = toGraph(example('send-back.yml'));
    expect(graph.nodes.map((n) => n.id)).toEqual(['workflow', 'step:draft', 'step:draft/acts[0]', 'step:review', 'step:review/acts[0]', 'workflow:end']);
    const anonymous = toGraph('id: w\nsteps:\n  - acts: [ { uses: a }, { id: x, uses: b } ]\n');
    expect(anonymous.nodes.map((n) => n.id)).toEqual(['workflow', 'steps[0]', 'steps[0].acts[0]', 'act:x', 'workflow:end']);
  });

  it('falls back to paths for every holder of a duplicated id', () => {
    const graph = toGraph('id: w\nsteps:\n  - { id: same, acts: [ { id: same, uses: a } ] }\n  - { id: other }\n');
    expect(graph.nodes.map((n) => n.id)).toEqual(['workflow', 'steps[0]', 'steps[0].acts[0]', 'step:other', 'workflow:end']);
  });

  it('ids do not change when siblings are reordered', () => {
    const before = toGraph('id: w\nsteps:\n  - { id: a, acts: [ { uses: x } ] }\n  - { id: b }\n');
    const after = toGraph('id: w\nsteps:\n  - { id: b }\n  - { id: a, acts: [ { uses: x } ] }\n');
    expect(after.nodes.map((n) => n.id).sort()).toEqual(before.nodes.map((n) => n.id).sort());
  });

  it('knows where each node is in the text (offsets and 1-based line/column)', () => {
    const source = example('approval-chain.yml');
    const director = node(toGraph(source), 'step:director');
    expect(director.range?.from).toEqual({ line: 16, col: 5 });
    expect(source.slice(director.range!.start)).toMatch(/^id: director\n/);
    expect(source.slice(director.range!.start, director.range!.end)).toContain('director_approve');
  });
});

describe('toGraph: tolerant parsing', () => {
  const broken = [
    'id: w',
    'steps:',
    '  - id: first',
    '    acts:',
    '      - { uses: acts.core.irq, key: ok }',
    '  - id: second',
    '    acts: [ { uses: acts.core.msg',
    '  - id: third',
    '',
  ].join('\n');

  it('keeps every node it could read and reports the syntax errors with line and column', () => {
    const graph = toGraph(broken);
    expect(graph.errors.length).toBeGreaterThan(0);
    expect(graph.errors[0]).toMatchObject({ code: 'yaml.syntax', path: '', position: { line: 8, col: 3 } });
    expect(graph.nodes.map((n) => n.id)).toEqual(
      expect.arrayContaining(['workflow', 'step:first', 'step:first/acts[0]', 'step:second', 'step:third']),
    );
    expect(loadModel(broken).problems[0]).toMatchObject({ code: 'yaml.syntax', position: graph.errors[0].position });
  });

  it('a document that is not a mapping is a workflow without steps', () => {
    expect(toGraph('- a\n- b\n').nodes.map((n) => n.id)).toEqual(['workflow', 'workflow:end']);
  });
});
