/**
 * Property edits drawn before their text is written (issue 17, item 2: a rename on a 200-node
 * model drawn within a frame): the queue of waiting edits and its one scheduled flush, applying
 * them in order (each one undo step, a refused one left out), and the preview of a rename — the
 * graph the renamed text parses to, so nothing moves or flickers when the text catches up.
 */
import { describe, expect, it } from 'vitest';
import { DesignerEditError, rename, renamedGraph, toGraph, type DesignerGraph } from '../components/designer/model/index.ts';
import { startHistory, undo } from '../components/designer/history.ts';
import { applyEdits, PendingEdits, type PendingEdit } from '../components/designer/pending-edits.ts';

const SOURCE = `id: shop
name: Shop
steps:
  - id: pick
    name: Pick the goods
    acts:
      - { id: ask, uses: acts.core.irq }
      - uses: acts.core.msg
  - id: pack
    acts:
      - { id: box, name: Box it, uses: acts.core.irq }
`;

/** A scheduler the test runs by hand. */
function manualSchedule() {
  const due: (() => void)[] = [];
  let cancelled = 0;
  const schedule = (run: () => void) => {
    due.push(run);
    return () => {
      cancelled += 1;
      due.splice(due.indexOf(run), 1);
    };
  };
  return { schedule, due, cancelled: () => cancelled };
}

const renameTo = (nodeId: string, name: string): PendingEdit => ({ change: (s) => rename(s, nodeId, { name }), onError: () => undefined });

/** The graph without source ranges (they move with every change of the text above a node). */
const shown = (graph: DesignerGraph) => graph.nodes.map(({ range: _range, ...node }) => node);

describe('PendingEdits', () => {
  it('schedules one flush for the edits queued before it, hands them over in order and cancels the schedule on take', () => {
    const clock = manualSchedule();
    let flushes = 0;
    const pending = new PendingEdits(clock.schedule, () => flushes++);
    const first = renameTo('step:pick', 'One');
    const second = renameTo('step:pack', 'Two');
    pending.add(first);
    pending.add(second);
    expect(clock.due).toHaveLength(1);
    expect(pending.size).toBe(2);
    expect(pending.take()).toEqual([first, second]);
    expect(pending.size).toBe(0);
    expect(clock.due).toHaveLength(0);
    expect(clock.cancelled()).toBe(1);
    expect(flushes).toBe(0);
  });

  it('runs `due` when the schedule fires, and schedules again for the next edit', () => {
    const clock = manualSchedule();
    let flushes = 0;
    const pending = new PendingEdits(clock.schedule, () => {
      flushes++;
      pending.take();
    });
    pending.add(renameTo('step:pick', 'One'));
    clock.due.shift()!();
    expect(flushes).toBe(1);
    pending.add(renameTo('step:pick', 'Two'));
    expect(clock.due).toHaveLength(1);
  });

  it('drop forgets the edits and cancels the flush (another text was loaded)', () => {
    const clock = manualSchedule();
    const pending = new PendingEdits(clock.schedule, () => undefined);
    pending.add(renameTo('step:pick', 'One'));
    pending.drop();
    expect(pending.size).toBe(0);
    expect(clock.due).toHaveLength(0);
  });
});

describe('applyEdits', () => {
  it('applies the edits in order, each one undo step', () => {
    const { history, failed } = applyEdits(startHistory(SOURCE), [renameTo('step:pick', 'Choose'), renameTo('step:pick', 'Choose well'), renameTo('act:box', 'Box')], 1);
    expect(failed).toEqual([]);
    expect(history.present).toContain('name: Choose well');
    expect(history.present).toContain('name: Box,');
    expect(history.past).toHaveLength(3);
    expect(undo(history).present).toContain('name: Box it');
    expect(undo(undo(undo(history))).present).toBe(SOURCE);
  });

  it('leaves out an edit that throws and still applies the ones after it', () => {
    const refused = { change: (s: string) => rename(s, 'step:gone', { name: 'x' }), onError: () => undefined };
    const { history, failed } = applyEdits(startHistory(SOURCE), [renameTo('step:pick', 'Choose'), refused, renameTo('step:pack', 'Pack up')], 1);
    expect(failed.map((f) => f.edit)).toEqual([refused]);
    expect(failed[0].error).toBeInstanceOf(DesignerEditError);
    expect(history.present).toContain('name: Choose');
    expect(history.present).toContain('name: Pack up');
    expect(history.past).toHaveLength(2);
  });
});

describe('renamedGraph', () => {
  const graph = toGraph(SOURCE);
  const cases: [string, string][] = [
    ['step:pick', 'Choose'],
    ['step:pack', 'Pack: it all'],
    ['act:ask', '123'],
    ['act:box', ' spaced '],
    ['workflow', 'The shop'],
    ['step:pick', ''],
    ['act:box', ''],
  ];
  it.each(cases)('draws %s named %j as the renamed text parses', (nodeId, name) => {
    const preview = renamedGraph(graph, nodeId, name);
    expect(preview).not.toBeNull();
    const parsed = toGraph(rename(SOURCE, nodeId, { name }).source);
    expect(shown(preview!)).toEqual(shown(parsed));
    expect(preview!.edges).toBe(graph.edges);
  });

  it('keeps every other node as it is', () => {
    const preview = renamedGraph(graph, 'step:pick', 'Choose')!;
    preview.nodes.forEach((node, i) => (node.id === 'step:pick' ? expect(node).not.toBe(graph.nodes[i]) : expect(node).toBe(graph.nodes[i])));
  });

  it('cannot tell the label of a node without an id losing its name, nor of a node the graph lacks', () => {
    const unnamed = toGraph(rename(SOURCE, 'step:pick/acts[1]', { name: 'Tell' }).source);
    expect(renamedGraph(unnamed, 'step:pick/acts[1]', '')).toBeNull();
    expect(renamedGraph(graph, 'step:gone', 'x')).toBeNull();
  });
});
