import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  addAct,
  addBranch,
  addStep,
  defaultsFromSchema,
  DesignerEditError,
  moveActTo,
  moveNode,
  removeNode,
  rename,
  setFields,
  setWorkflow,
  toGraph,
} from '../components/designer/model/index.ts';
import { loadModel } from '../server/engine/model/index.ts';

const example = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');

/** The engine's own parse + validate accepts the text. */
function expectValid(source: string): void {
  expect(loadModel(source, { knownPackage: (uses) => uses.startsWith('acts.') }).problems).toEqual([]);
}

function expectEditError(edit: () => unknown, code: string): void {
  try {
    edit();
  } catch (err) {
    expect(err).toBeInstanceOf(DesignerEditError);
    expect((err as DesignerEditError).code).toBe(code);
    expect((err as Error).message).toMatch(new RegExp(`^${code.replace('.', '\\.')}: `));
    return;
  }
  throw new Error(`expected ${code}`);
}

const COMMENTED = `# Expense approval, written by hand
id: commented
name: Commented
steps:
  # the first approval
  - id: manager
    name: Manager approval # who approves first
    acts:
      - id: approve_manager
        uses: acts.core.irq # waits for a person
        params: { title: 'Approve {{ amount }}?' }
  - id: director
    acts:
      # the second approval
      - id: approve_director
        uses: acts.core.irq
      # tell the requester
      - id: notify
        uses: acts.core.msg
# the end of the file
`;
const COMMENTS = [
  '# Expense approval, written by hand',
  '# the first approval',
  '# who approves first',
  '# waits for a person',
  '# the second approval',
  '# tell the requester',
  '# the end of the file',
];
const MANAGER_BLOCK = COMMENTED.slice(COMMENTED.indexOf('  - id: manager'), COMMENTED.indexOf('  - id: director'));

function expectCommentsKept(source: string, removed: string[] = []): void {
  for (const comment of COMMENTS) if (!removed.includes(comment)) expect(source).toContain(comment);
  expectValid(source);
}

describe('edits keep comments and formatting', () => {
  it('the commented document prints back unchanged through a no-op rename', () => {
    expect(rename(COMMENTED, 'step:manager', { name: 'Manager approval' }).source).toBe(COMMENTED);
  });

  it('adding a step', () => {
    const { source, nodeId } = addStep(COMMENTED, { index: 1, name: 'Finance check' });
    expectCommentsKept(source);
    expect(nodeId).toBe('step:step_1');
    expect(source).toContain(MANAGER_BLOCK);
    expect(toGraph(source).nodes.filter((n) => n.kind === 'step').map((n) => n.id)).toEqual(['step:manager', 'step:step_1', 'step:director']);
  });

  it('removing an act (its own comment line goes with it)', () => {
    const { source, nodeId } = removeNode(COMMENTED, 'act:notify');
    expectCommentsKept(source, ['# tell the requester']);
    expect(source).not.toContain('# tell the requester');
    expect(nodeId).toBe('step:director');
    expect(source).not.toContain('id: notify');
    expect(source).toContain(MANAGER_BLOCK);
  });

  it('moving a step up', () => {
    const { source, nodeId } = moveNode(COMMENTED, 'step:director', -1);
    expectCommentsKept(source);
    expect(nodeId).toBe('step:director');
    expect(source.indexOf('id: director')).toBeLessThan(source.indexOf('id: manager'));
    expect(source).toContain(MANAGER_BLOCK.replace('  # the first approval\n', ''));
  });

  it('an item takes the comment lines above it along (a comment above the first item stays with the list)', () => {
    const { source } = moveNode(COMMENTED, 'act:notify', -1);
    expectCommentsKept(source);
    expect(source).toContain('      # the second approval\n      # tell the requester\n      - id: notify\n');
  });

  it('moving an act down and into another step', () => {
    const down = moveNode(COMMENTED, 'act:approve_director', 1);
    expectCommentsKept(down.source);
    expect(down.source.indexOf('id: notify')).toBeLessThan(down.source.indexOf('id: approve_director'));

    const moved = moveActTo(COMMENTED, 'act:approve_director', 'step:manager', 0);
    expectCommentsKept(moved.source);
    expect(moved.nodeId).toBe('act:approve_director');
    const graph = toGraph(moved.source);
    expect(graph.nodes.find((n) => n.id === 'act:approve_director')).toMatchObject({ parent: 'step:manager', index: 0 });
  });

  it('setting fields: a scalar keeps its trailing comment, a new field goes where it belongs', () => {
    const { source } = setFields(COMMENTED, 'act:approve_manager', {
      uses: 'acts.core.msg',
      key: 'manager_ok',
      outputs: { approved_by: null },
      if: 'amount > 10',
    });
    expectCommentsKept(source);
    expect(source).toContain('        uses: acts.core.msg # waits for a person\n        key: manager_ok\n        if: amount > 10\n');
    expect(source).toContain('        outputs:\n          approved_by: null\n');
    const removed = setFields(source, 'act:approve_manager', { params: undefined });
    expect(removed.source).not.toContain('Approve {{ amount }}?');
  });

  it('keeps long flow lines on one line', () => {
    const source = example('approval-chain.yml');
    const { source: edited } = setFields(source, 'step:director', { name: 'Director' });
    const longLine = source.split('\n').find((line) => line.length > 100)!;
    expect(edited).toContain(longLine);
    expect(edited.replace('name: Director\n', 'name: Director approval\n')).toBe(source);
  });
});

describe('building a two-step approval from nothing (the designer e2e path)', () => {
  it('new workflow → add step → add irq act → add step → add irq act → ids and names', () => {
    let source = setWorkflow('', { id: 'expense', name: 'Expense approval' }).source;
    const first = addStep(source);
    source = first.source;
    const firstAct = addAct(source, { parent: first.nodeId, uses: 'acts.core.irq', schema: {} });
    source = firstAct.source;
    const second = addStep(source);
    source = second.source;
    const secondAct = addAct(source, {
      parent: second.nodeId,
      uses: 'acts.core.irq',
      schema: { type: 'object', properties: { title: { type: 'string', default: 'Approve?' }, note: { type: 'string' } } },
    });
    source = secondAct.source;
    expect([first.nodeId, firstAct.nodeId, second.nodeId, secondAct.nodeId]).toEqual(['step:step_1', 'act:irq_1', 'step:step_2', 'act:irq_2']);

    source = rename(source, first.nodeId, { id: 'manager', name: 'Manager approval' }).source;
    source = rename(source, second.nodeId, { id: 'director', name: 'Director approval' }).source;
    source = rename(source, firstAct.nodeId, { id: 'manager_approve' }).source;
    source = rename(source, secondAct.nodeId, { id: 'director_approve' }).source;

    expect(source).toBe(
      [
        'id: expense',
        'name: Expense approval',
        'steps:',
        '  - id: manager',
        '    name: Manager approval',
        '    acts:',
        '      - id: manager_approve',
        '        uses: acts.core.irq',
        '  - id: director',
        '    name: Director approval',
        '    acts:',
        '      - id: director_approve',
        '        uses: acts.core.irq',
        '        params:',
        '          title: Approve?',
        '',
      ].join('\n'),
    );
    expectValid(source);
    const graph = toGraph(source);
    expect(graph.edges.filter((e) => e.kind === 'flow').map((e) => `${e.source} -> ${e.target}`)).toEqual([
      'workflow -> step:manager',
      'step:manager -> act:manager_approve',
      'act:manager_approve -> step:director',
      'step:director -> act:director_approve',
      'act:director_approve -> workflow:end',
    ]);
  });
});

describe('edits: adding', () => {
  it('adds a branch with `if`, an else branch, and an act into a branch (which gets a step)', () => {
    let source = 'id: route\nsteps:\n  - id: decide\n';
    const large = addBranch(source, { step: 'step:decide', if: 'amount >= 1000', name: 'Large' });
    source = large.source;
    source = addBranch(source, { step: 'step:decide', else: true }).source;
    const act = addAct(source, { parent: large.nodeId, uses: 'acts.core.irq' });
    source = act.source;
    expect(act.nodeId).toBe('act:irq_1');
    expectValid(source);
    const graph = toGraph(source);
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'workflow',
      'step:decide',
      'branch:branch_1',
      'step:step_1',
      'act:irq_1',
      'branch:branch_2',
      'workflow:end',
    ]);
    expect(graph.edges.filter((e) => e.kind === 'branch').map((e) => e.label)).toEqual(['if amount >= 1000', 'else']);
    // a second act joins the branch's last step
    const again = addAct(source, { parent: large.nodeId, uses: 'acts.core.msg', index: 0 });
    expect(toGraph(again.source).nodes.find((n) => n.id === 'act:msg_1')).toMatchObject({ parent: 'step:step_1', index: 0 });
  });

  it('adds steps into catches, hooks and setup acts', () => {
    let source = example('catches.yml');
    const step = addStep(source, { parent: 'step:pay/acts[0].catches[2]', id: 'log_it' });
    expect(step.nodeId).toBe('step:log_it');
    source = step.source;
    const hook = addAct(source, { parent: 'workflow', uses: 'acts.core.msg', on: 'completed' });
    source = hook.source;
    expect(toGraph(source).nodes.find((n) => n.id === hook.nodeId)).toMatchObject({ kind: 'hook', on: 'completed' });
    const setup = addAct(source, { parent: 'step:ship', uses: 'acts.transform.set', setup: true, params: { shipped: true } });
    expect(toGraph(setup.source).nodes.find((n) => n.id === setup.nodeId)).toMatchObject({ kind: 'act', path: 'steps[1].setup[0]' });
    expectValid(setup.source);
  });

  it('generated ids are unique among ids and act keys', () => {
    const source = 'id: w\nsteps:\n  - id: step_1\n    acts: [ { uses: acts.core.irq, key: irq_1 } ]\n';
    const step = addStep(source);
    expect(step.nodeId).toBe('step:step_2');
    expect(addAct(step.source, { parent: 'step:step_1', uses: 'acts.core.irq' }).nodeId).toBe('act:irq_2');
    expect(addAct(source, { parent: 'step:step_1', uses: 'my-org.fancy-thing' }).nodeId).toBe('act:fancy_thing_1');
  });

  it('default params come from the schema defaults', () => {
    expect(defaultsFromSchema({})).toBeUndefined();
    expect(defaultsFromSchema({ default: { a: 1 } })).toEqual({ a: 1 });
    expect(
      defaultsFromSchema({
        type: 'object',
        properties: { action: { type: 'string', default: 'next' }, options: { type: 'object', properties: { ecode: { default: 'e1' } } }, x: {} },
      }),
    ).toEqual({ action: 'next', options: { ecode: 'e1' } });
  });
});

describe('edits: setting fields', () => {
  it('changes a copy of the parse the graph was read from: the graph of the old text stays as it was', () => {
    const source = example('send-back.yml');
    const before = toGraph(source);
    const label = before.nodes.find((n) => n.id === 'step:review')!.label;
    const edited = setFields(source, 'step:review', { name: 'Second look' }).source;
    // a second edit of the same text starts from that text, not from the first edit's document
    expect(setFields(source, 'step:review', { name: 'Again' }).source).toBe(edited.replace('Second look', 'Again'));
    expect(toGraph(edited).nodes.find((n) => n.id === 'step:review')!.label).toBe('Second look');
    expect(before.nodes.find((n) => n.id === 'step:review')!.label).toBe(label);
    expect(toGraph(source).nodes.find((n) => n.id === 'step:review')!.label).toBe(label);
  });

  it('sets next, timeout rules, branch needs, trigger cron and workflow inputs; the graph follows', () => {
    let source = example('send-back.yml');
    source = setFields(source, 'step:review', { next: 'draft', if: 'rounds < 3' }).source;
    source = setFields(source, 'step:draft/acts[0]', {
      params: { title: 'Write the draft' },
      timeout: [{ on: '1d', steps: [{ id: 'nudge', acts: [{ uses: 'acts.core.msg', key: 'nudge_author' }] }] }],
    }).source;
    source = setWorkflow(source, { name: 'Send back', inputs: { rounds: 0 } }).source;
    expectValid(source);
    const graph = toGraph(source);
    expect(graph.edges.find((e) => e.kind === 'next')).toMatchObject({ source: 'step:review/acts[0]', target: 'step:draft', back: true });
    expect(graph.edges.find((e) => e.kind === 'timeout')).toMatchObject({ source: 'step:draft/acts[0]', label: '1d' });
    expect(graph.nodes[0]).toMatchObject({ id: 'workflow', label: 'Send back' });
    expect(source.startsWith('# A reviewer sends a draft back once')).toBe(true);
    expect(source).toContain('id: send-back\nname: Send back\ninputs:\n  rounds: 0\nsteps:\n');
  });

  it('sets branch and trigger fields', () => {
    let source = "id: w\non:\n  - { id: daily, uses: acts.event.schedule, cron: '0 0 8 * * *' }\nsteps:\n  - id: s\n    branches:\n      - { id: a, if: 'true' }\n      - { id: b }\n";
    source = setFields(source, 'branch:b', { needs: ['a'], if: 'ok' }).source;
    source = setFields(source, 'trigger:daily', { cron: '0 30 9 * * *', timezone: 'UTC' }).source;
    expectValid(source);
    expect(source).toContain("{ id: daily, uses: acts.event.schedule, cron: '0 30 9 * * *', timezone: UTC }");
    expect(toGraph(source).nodes.find((n) => n.id === 'branch:b')).toMatchObject({ needs: ['a'], condition: 'ok' });
  });

  it('moving keeps the node ids of elements with ids and of the acts under them', () => {
    const before = toGraph(COMMENTED).nodes.map((n) => n.id).sort();
    const after = toGraph(moveNode(COMMENTED, 'step:manager', 1).source).nodes.map((n) => n.id).sort();
    expect(after).toEqual(before);
  });
});

describe('edits: renaming keeps references', () => {
  it('a renamed step is still the target of `next`', () => {
    const { source, nodeId } = rename(example('loop.yml'), 'step:cond', { id: 'check' });
    expect(nodeId).toBe('step:check');
    expect(source).toContain('next: check');
    expectValid(source);
  });

  it('a renamed branch is still needed by its siblings', () => {
    const source = 'id: w\nsteps:\n  - id: s\n    branches:\n      - { id: a, if: "true" }\n      - { id: b, needs: [a], if: "true" }\n';
    const renamed = rename(source, 'branch:a', { id: 'first' }).source;
    expect(renamed).toContain('needs: [ first ]');
    expectValid(renamed);
  });

  it('an element without an id gets one as its first field', () => {
    const { source, nodeId } = rename(example('send-back.yml'), 'step:draft/acts[0]', { id: 'write_it', name: 'Write' });
    expect(nodeId).toBe('act:write_it');
    expect(source).toContain('- { id: write_it, name: Write, uses: acts.core.irq, key: write }');
  });
});

describe('edits: invalid edits throw coded errors', () => {
  const source = example('approval-chain.yml');
  it.each([
    ['edit.unknown_node', () => removeNode(source, 'step:nope')],
    ['edit.cannot_remove', () => removeNode(source, 'workflow')],
    ['edit.unknown_node', () => removeNode(source, 'workflow:end')],
    ['edit.cannot_move', () => moveNode(source, 'step:manager', -1)],
    ['edit.cannot_move', () => moveNode(source, 'step:director', 1)],
    ['edit.bad_parent', () => addAct(source, { parent: 'workflow', uses: 'acts.core.irq' })],
    ['edit.bad_parent', () => addStep(source, { parent: 'step:manager' })],
    ['edit.bad_parent', () => addBranch(source, { step: 'workflow' })],
    ['edit.missing_uses', () => addAct(source, { parent: 'step:manager', uses: ' ' })],
    ['edit.bad_index', () => addStep(source, { index: 7 })],
    ['edit.duplicate_id', () => rename(source, 'step:manager', { id: 'director' })],
    ['edit.duplicate_id', () => addStep(source, { id: 'notify' })],
    ['edit.empty_id', () => rename(source, 'step:manager', { id: '  ' })],
    ['edit.unknown_field', () => setFields(source, 'step:manager', { uses: 'acts.core.irq' })],
    ['edit.bad_target', () => moveActTo(source, 'step:manager/acts[0]', 'workflow')],
    ['edit.bad_target', () => moveActTo(source, 'setup[0]', 'step:manager')],
    ['edit.invalid_yaml', () => addStep('id: w\nsteps: [ {\n')],
    ['edit.not_a_workflow', () => addStep('- a\n- b\n')],
    ['edit.not_a_list', () => addStep('id: w\nsteps: nothing\n')],
  ])('%s', (code, edit) => expectEditError(edit, code));

  it('an act cannot move into a step of its own catch', () => {
    expectEditError(() => moveActTo(example('catches.yml'), 'step:pay/acts[0]', 'step:ask_other_card'), 'edit.bad_target');
  });
});
