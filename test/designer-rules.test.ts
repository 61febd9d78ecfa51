/** Graph edits: a catch (by ecode or catch-all) and a timeout added to a step or an act, then acts added into them, and a trigger added to the workflow; the document stays a valid model. */
import { describe, expect, it } from 'vitest';
import { addAct, addRule, addTrigger, DesignerEditError, setFields, toGraph } from '../components/designer/model/index.ts';
import { loadModel } from '../server/engine/model/index.ts';

const source = 'id: w\nsteps:\n  - id: pay\n    acts:\n      - id: charge\n        uses: acts.core.irq\n';
const nodeOf = (text: string, id: string) => toGraph(text).nodes.find((n) => n.id === id);
const valid = (text: string) => expect(loadModel(text).problems).toEqual([]);

describe('adding catch and timeout rules', () => {
  it('a catch by ecode on an act, then an act inside it (which gets a step)', () => {
    const rule = addRule(source, { owner: 'act:charge', field: 'catches', on: ' declined ' });
    expect(nodeOf(rule.source, rule.nodeId)).toMatchObject({ kind: 'catch', label: 'catch declined' });
    const act = addAct(rule.source, { parent: rule.nodeId, uses: 'acts.core.msg' });
    expect(act.source).toContain('catches:\n          - on: declined\n            steps:\n              - id: step_1\n                acts:\n                  - id: msg_1\n                    uses: acts.core.msg\n');
    valid(act.source);
  });

  it('a catch-all on a step has no `on`', () => {
    const rule = addRule(source, { owner: 'step:pay', field: 'catches', on: '' });
    expect(nodeOf(rule.source, rule.nodeId)).toMatchObject({ kind: 'catch', label: 'catch any error' });
    valid(addAct(rule.source, { parent: rule.nodeId, uses: 'acts.core.msg' }).source);
  });

  it('a timeout after a duration, with its steps', () => {
    const rule = addRule(source, { owner: 'step:pay', field: 'timeout', on: '2h' });
    expect(nodeOf(rule.source, rule.nodeId)).toMatchObject({ kind: 'timeout', label: 'timeout 2h' });
    const act = addAct(rule.source, { parent: rule.nodeId, uses: 'acts.core.action', params: { action: 'error', options: { ecode: 'late' } } });
    valid(act.source);
    expect(loadModel(act.source).workflow?.steps[0].timeout).toMatchObject([{ on: '2h', steps: [{ id: 'step_1', acts: [{ uses: 'acts.core.action' }] }] }]);
  });

  it('refuses a timeout without a duration and a rule on the workflow, in sentences', () => {
    expect(() => addRule(source, { owner: 'step:pay', field: 'timeout' })).toThrow(/a timeout needs how long to wait first, e.g. 2h or 1d/);
    expect(() => addRule(source, { owner: 'workflow', field: 'catches' })).toThrow(DesignerEditError);
  });
});

describe('adding a trigger', () => {
  it('a schedule trigger joins the workflow `on` list with a fresh id; its cron is then set on it', () => {
    const trigger = addTrigger(source, 'acts.event.schedule');
    expect(trigger.nodeId).toBe('trigger:schedule_1');
    expect(trigger.source).toContain('on:\n  - id: schedule_1\n    uses: acts.event.schedule\n');
    valid(setFields(trigger.source, trigger.nodeId, { cron: '0 0 3 * * *' }).source);
  });
});
