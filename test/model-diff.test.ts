/**
 * The structural diff of two model texts (vocab/model-diff): realistic edits of an expense
 * workflow — a step renamed, an act's params changed, a catch added, a timeout changed, an act
 * moved to another step, a step removed, a `next` changed, siblings reordered — each reported on
 * the right node with the right fields, and identical (or only reformatted) texts as no change.
 */
import { describe, expect, it } from 'vitest';
import { changeLine, diffModels, type ModelDiff, type NodeChange } from '../vocab/model-diff/index.ts';

const BASE = `id: expense
name: Expense approval
inputs: { amount: 120, requester: alice }
steps:
  - id: check
    name: Check the amount
    acts:
      - id: limits
        uses: acts.core.code
        params: { src: 'amount < 1000' }
    timeout:
      - on: 2h
        steps:
          - id: escalate_check
            acts:
              - { uses: acts.core.msg, params: { to: ops, text: late } }
  - id: approve
    name: Manager approval
    next: pay
    acts:
      - id: ask
        uses: acts.core.irq
        params: { title: 'Approve {{ amount }}?' }
      - id: note
        uses: acts.core.msg
        params: { to: '{{ requester }}', text: asked }
  - id: review
    name: Second look
    acts:
      - { uses: acts.core.irq, key: second_look }
  - id: pay
    name: Pay out
    acts:
      - id: transfer
        uses: acts.core.http
        params: { url: 'https://bank.example/pay', method: POST }
`;

function edit(...replacements: [string, string][]): string {
  let text = BASE;
  for (const [from, to] of replacements) {
    expect(text, `the base model holds ${JSON.stringify(from)}`).toContain(from);
    text = text.replace(from, to);
  }
  return text;
}

const changed = (diff: ModelDiff) => diff.changes.filter((c) => c.status !== 'unchanged');
const byKey = (diff: ModelDiff, key: string): NodeChange => {
  const change = diff.changes.find((c) => c.key === key);
  expect(change, `a change of ${key}`).toBeDefined();
  return change!;
};

describe('diffModels', () => {
  it('finds nothing between identical texts, nor between texts that only differ in layout, comments and key order', () => {
    expect(diffModels(BASE, BASE).same).toBe(true);
    const reformatted = edit(
      ["params: { url: 'https://bank.example/pay', method: POST }", "# the bank's API\n        params:\n          method: POST\n          url: https://bank.example/pay"],
      ['name: Expense approval', 'name: "Expense approval"'],
    );
    const diff = diffModels(BASE, reformatted);
    expect(changed(diff)).toEqual([]);
    expect(diff.same).toBe(true);
    expect(diff.problems).toEqual([]);
  });

  it('reports a renamed step (its name) as changed, and nothing else', () => {
    const diff = diffModels(BASE, edit(['name: Manager approval', 'name: Manager sign-off']));
    expect(changed(diff).map(changeLine)).toEqual(['~ step approve: name']);
    expect(byKey(diff, 'step:approve').fields).toEqual([{ field: 'name', before: 'Manager approval', after: 'Manager sign-off' }]);
    expect(byKey(diff, 'step:approve')).toMatchObject({ nid: 'approve', path: 'steps[1]', beforePath: 'steps[1]', label: 'Manager sign-off' });
  });

  it("reports an act's changed params with their old and new values", () => {
    const diff = diffModels(BASE, edit(["params: { title: 'Approve {{ amount }}?' }", "params: { title: 'Approve {{ amount }} now?', assignees: [bob] }"]));
    expect(changed(diff).map(changeLine)).toEqual(['~ act ask: params']);
    expect(byKey(diff, 'act:ask').fields).toEqual([
      { field: 'params', before: { title: 'Approve {{ amount }}?' }, after: { title: 'Approve {{ amount }} now?', assignees: ['bob'] } },
    ]);
  });

  it('reports an added catch on its owner, and the catch and its steps as added', () => {
    const diff = diffModels(
      BASE,
      edit(["        params: { url: 'https://bank.example/pay', method: POST }\n", "        params: { url: 'https://bank.example/pay', method: POST }\n        catches:\n          - on: bank.down\n            steps:\n              - id: retry_later\n                acts: [{ uses: acts.core.msg, params: { to: ops, text: retry } }]\n"]),
    );
    expect(changed(diff).map(changeLine)).toEqual(['~ act transfer: catches', '+ catch act:transfer/catches[0]', '+ step retry_later', '+ act step:retry_later/acts[0]']);
    expect(byKey(diff, 'act:transfer').fields).toEqual([{ field: 'catches', after: [{ on: 'bank.down' }] }]);
  });

  it("reports a changed timeout on its owner and on the rule, not on the rule's steps", () => {
    const diff = diffModels(BASE, edit(['- on: 2h', '- on: 30m']));
    expect(changed(diff).map(changeLine)).toEqual(['~ step check: timeout', '~ timeout step:check/timeout[0]: on']);
    expect(byKey(diff, 'step:check').fields).toEqual([{ field: 'timeout', before: [{ on: '2h' }], after: [{ on: '30m' }] }]);
  });

  it('reports an act moved to another step as moved, with where it was and is', () => {
    const moved = edit(
      ["      - id: note\n        uses: acts.core.msg\n        params: { to: '{{ requester }}', text: asked }\n", ''],
      ["        params: { url: 'https://bank.example/pay', method: POST }\n", "        params: { url: 'https://bank.example/pay', method: POST }\n      - id: note\n        uses: acts.core.msg\n        params: { to: '{{ requester }}', text: asked }\n"],
    );
    const diff = diffModels(BASE, moved);
    expect(changed(diff).map(changeLine)).toEqual(['> act note: moved']);
    expect(byKey(diff, 'act:note')).toMatchObject({
      status: 'moved',
      moved: { from: { parent: 'step:approve', field: 'acts', index: 1 }, to: { parent: 'step:pay', field: 'acts', index: 1 } },
      beforePath: 'steps[1].acts[1]',
      path: 'steps[3].acts[1]',
    });
  });

  it('reports a removed step and its acts as removed, after the node that preceded them, with nothing moved', () => {
    const diff = diffModels(BASE, edit(["  - id: review\n    name: Second look\n    acts:\n      - { uses: acts.core.irq, key: second_look }\n", '']));
    expect(changed(diff).map(changeLine)).toEqual(['- step review', '- act step:review/acts[0]']);
    const keys = diff.changes.map((c) => c.key);
    expect(keys.indexOf('step:review')).toBe(keys.indexOf('act:note') + 1);
    expect(byKey(diff, 'step:review')).toMatchObject({ nid: 'review', beforePath: 'steps[2]', label: 'Second look' });
  });

  it('reports a changed `next`', () => {
    const diff = diffModels(BASE, edit(['next: pay', 'next: review']));
    expect(changed(diff).map(changeLine)).toEqual(['~ step approve: next']);
    expect(byKey(diff, 'step:approve').fields).toEqual([{ field: 'next', before: 'pay', after: 'review' }]);
  });

  it('reports reordered steps: the order on the workflow, and only the step that left its place as moved', () => {
    const pay = BASE.slice(BASE.indexOf('  - id: pay'));
    const reordered = BASE.replace(pay, '').replace('  - id: approve', `${pay}  - id: approve`);
    const diff = diffModels(BASE, reordered);
    expect(changed(diff).map(changeLine)).toEqual(['~ workflow expense: order', '> step pay: moved']);
    expect(byKey(diff, 'workflow').fields).toEqual([
      { field: 'order', before: { steps: ['step:check', 'step:approve', 'step:review', 'step:pay'] }, after: { steps: ['step:check', 'step:pay', 'step:approve', 'step:review'] } },
    ]);
  });

  it('matches a step whose id changed as one removed and one added, its acts with ids moving over', () => {
    const diff = diffModels(BASE, edit(['  - id: approve\n', '  - id: approval\n']));
    expect(changed(diff).map(changeLine)).toEqual(['- step approve', '+ step approval', '> act ask: moved', '> act note: moved']);
  });

  it("gives the engine's node ids of both versions when the caller has them (ids generated for nodes without one)", () => {
    const after = edit(['name: Second look', 'name: A second look']);
    const nids = {
      before: [{ path: 'steps[2].acts[0]', nid: 'Gen0001a' }],
      after: [{ path: 'steps[2].acts[0]', nid: 'Gen0002b' }],
    };
    const diff = diffModels(BASE, after, { nids });
    expect(byKey(diff, 'step:review/acts[0]')).toMatchObject({ status: 'unchanged', nid: 'Gen0002b', beforeNid: 'Gen0001a' });
    expect(byKey(diff, 'step:review')).toMatchObject({ status: 'changed', nid: 'review' });
    expect(byKey(diff, 'step:review').beforeNid).toBeUndefined();
  });

  it('reads what it can of a text with a syntax error and reports the error with its side', () => {
    const diff = diffModels(BASE, `${BASE}  - id: broken\n    acts: [\n`);
    expect(diff.problems).toMatchObject([{ code: 'yaml.syntax', side: 'after' }]);
    expect(byKey(diff, 'step:pay').status).toBe('unchanged');
  });
});
