import { describe, expect, it } from 'vitest';
import { pinProblems, problemsByNode, toGraph } from '../components/designer/model/index.ts';
import { loadModel, type ModelProblem } from '../server/engine/model/index.ts';
import { parentPath } from '../components/designer/model/problems.ts';

const BROKEN = `id: broken
on:
  - { id: nightly, uses: acts.event.schedule, cron: 'not a cron' }
steps:
  - id: first
    acts:
      - { id: ask, uses: acts.core.irq }
  - id: second
    next: nowhere
    acts:
      - { key: nothing_to_run }
      - uses: acts.core.irq
        catches:
          - on: late
            steps: [ { id: ask, acts: [ { uses: acts.core.msg } ] } ]
        timeout:
          - { on: soon, steps: [ { id: later } ] }
    branches:
      - { id: a, needs: [zzz] }
`;

describe('problems → nodes', () => {
  it("pins the engine's validation problems to the nodes they are about", () => {
    const { problems } = loadModel(BROKEN);
    const graph = toGraph(BROKEN);
    const pinned = pinProblems(graph, problems).map((p) => [p.code, p.path, p.nodeId]);
    expect(pinned).toEqual(
      expect.arrayContaining([
        ['model.bad_cron', 'on[0].cron', 'trigger:nightly'],
        ['model.unknown_next', 'steps[1].next', 'step:second'],
        ['model.missing_uses', 'steps[1].acts[0].uses', 'step:second/acts[0]'],
        ['model.bad_timeout', 'steps[1].acts[1].timeout[0].on', 'step:second/acts[1].timeout[0]'],
        ['model.unknown_needs', 'steps[1].branches[0].needs[0]', 'branch:a'],
        // `ask` is duplicated, so both holders have path ids
        ['model.duplicate_id', 'steps[1].acts[1].catches[0].steps[0].id', 'step:second/acts[1].catches[0].steps[0]'],
      ]),
    );
    expect(pinned).toHaveLength(problems.length);
  });

  it('a problem without a node of its own goes to the workflow', () => {
    const graph = toGraph('steps:\n  - id: s\n');
    const { problems } = loadModel('steps:\n  - id: s\n');
    expect(problems.map((p) => p.code)).toEqual(['model.missing_id']);
    expect(pinProblems(graph, problems)[0].nodeId).toBe('workflow');
    expect(pinProblems(graph, [{ path: 'steps[9].acts[0]', message: 'gone' }])[0].nodeId).toBe('workflow');
    expect(pinProblems(graph, [{ path: 'inputs_schema', message: 'bad' }])[0].nodeId).toBe('workflow');
  });

  it('a syntax error (path "") goes to the node whose lines hold it', () => {
    const source = 'id: w\nsteps:\n  - id: a\n    acts:\n      - { uses: x, key: [ }\n  - id: b\n';
    const graph = toGraph(source);
    const problems: ModelProblem[] = graph.errors;
    expect(problems.length).toBeGreaterThan(0);
    const nodeIds = pinProblems(graph, problems).map((p) => p.nodeId);
    expect(nodeIds[0]).toMatch(/^step:a/);
  });

  it('accepts problems with `line`/`column` as well as `position`', () => {
    const source = 'id: w\nsteps:\n  - id: a\n  - id: b\n    name: B\n';
    const graph = toGraph(source);
    expect(pinProblems(graph, [{ path: '', message: 'x', line: 5, column: 5 }])[0].nodeId).toBe('step:b');
    expect(pinProblems(graph, [{ path: '', message: 'x', position: { line: 3, col: 7 } }])[0].nodeId).toBe('step:a');
  });

  it('groups problems by node', () => {
    const graph = toGraph(BROKEN);
    const byNode = problemsByNode(graph, loadModel(BROKEN).problems);
    expect(byNode.get('step:second')?.map((p) => p.code)).toEqual(['model.unknown_next']);
    expect([...byNode.values()].flat()).toHaveLength(loadModel(BROKEN).problems.length);
  });

  it('walks problem paths up one segment at a time', () => {
    expect(parentPath('steps[1].acts[0].uses')).toBe('steps[1].acts[0]');
    expect(parentPath('steps[1].acts[0]')).toBe('steps[1].acts');
    expect(parentPath('steps[1]["my key"]')).toBe('steps[1]');
    expect(parentPath('inputs')).toBe('');
    expect(parentPath('')).toBeUndefined();
  });
});
