/** Graph edits: duplicating a node (fresh ids and keys throughout, right after the original) and wrapping an act in a step of its own. */
import { describe, expect, it } from 'vitest';
import { DesignerEditError, duplicateNode, toGraph, wrapInStep } from '../components/designer/model/index.ts';
import { loadModel } from '../server/engine/model/index.ts';

const source = [
  'id: w',
  'steps:',
  '  - id: manager',
  '    acts:',
  '      - id: approve',
  '        uses: acts.core.irq',
  '        key: approve_key',
  '        params: { title: Approve?, inputs: { id: keep } }',
  '      - id: notify',
  '        uses: acts.core.msg',
  '    catches:',
  '      - on: rejected',
  '        steps: [ { id: fix, acts: [ { id: redo, uses: acts.core.irq } ] } ]',
  '  - id: archive',
  '',
].join('\n');
const valid = (text: string) => expect(loadModel(text).problems).toEqual([]);
const ids = (text: string) => toGraph(text).nodes.map((n) => n.id);

describe('duplicating', () => {
  it('an act lands right after itself with a fresh id and key; its params stay as they were', () => {
    const copy = duplicateNode(source, 'act:approve');
    expect(copy.nodeId).toBe('act:approve_1');
    expect(copy.source).toContain('key: approve_key_1');
    expect(copy.source).toContain('params: { title: Approve?, inputs: { id: keep } }');
    expect(loadModel(copy.source).workflow?.steps[0].acts.map((a) => a.id)).toEqual(['approve', 'approve_1', 'notify']);
    valid(copy.source);
  });

  it('a step with everything inside it gets fresh ids throughout', () => {
    const copy = duplicateNode(source, 'step:manager');
    expect(copy.nodeId).toBe('step:manager_1');
    expect(ids(copy.source)).toEqual(expect.arrayContaining(['step:manager_1', 'act:approve_1', 'act:notify_1', 'step:fix_1', 'act:redo_1']));
    expect(loadModel(copy.source).workflow?.steps.map((s) => s.id)).toEqual(['manager', 'manager_1', 'archive']);
    valid(copy.source);
  });

  it('the workflow itself cannot be duplicated', () => {
    expect(() => duplicateNode(source, 'workflow')).toThrow(DesignerEditError);
  });
});

describe('wrapping in a step', () => {
  it("moves the act into a new step right after its step", () => {
    const wrapped = wrapInStep(source, 'act:notify');
    expect(wrapped.nodeId).toBe('step:step_1');
    const steps = loadModel(wrapped.source).workflow!.steps;
    expect(steps.map((s) => [s.id, s.acts.map((a) => a.id)])).toEqual([['manager', ['approve']], ['step_1', ['notify']], ['archive', []]]);
    valid(wrapped.source);
  });

  it('refuses what is not an act of a step, in a sentence', () => {
    expect(() => wrapInStep(source, 'step:manager')).toThrow(/only an act of a step's acts can be wrapped in a step of its own, and step:manager is not one/);
  });
});
