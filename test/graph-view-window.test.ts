/**
 * The window of a big graph handed to React Flow (issue 17 item 2: a 5,000-node run page within a
 * second): the part of the graph in view, the window around it and when it must move, the nodes
 * given for a window (their edges' other ends included), and the box the opening view fits.
 */
import { describe, expect, it } from 'vitest';
import { layout, toGraph } from '../components/designer/model/index.ts';
import { boundsMeeting, boundsOf, contains, idsInWindow, MARGIN, openingBounds, viewRect, windowAround } from '../components/graph/view-window.ts';

/** `n` steps of one act each, the last one looping back to the first. */
function chain(n: number): string {
  const lines = ['id: chain', 'steps:'];
  for (let i = 1; i <= n; i++) lines.push(`  - id: s${i}`, '    acts:', `      - { id: a${i}, uses: acts.core.irq }`);
  lines.push(`  - id: back`, '    next: s1');
  return `${lines.join('\n')}\n`;
}

const graph = toGraph(chain(200));
const laidOut = layout(graph);
const pane = { width: 600, height: 400 };

describe('the view and its window', () => {
  it('reads the part of the graph in view from the transform', () => {
    expect(viewRect([0, 0, 1], pane)).toEqual({ x: 0, y: 0, width: 600, height: 400 });
    expect(viewRect([-100, -300, 0.5], pane)).toEqual({ x: 200, y: 600, width: 1200, height: 800 });
  });

  it('grows the view by the margin on each side, and moves only once the view leaves it', () => {
    const view = viewRect([0, -1000, 1], pane);
    const window = windowAround(view);
    expect(window).toEqual({ x: -600 * MARGIN, y: 1000 - 400 * MARGIN, width: 600 * (1 + 2 * MARGIN), height: 400 * (1 + 2 * MARGIN) });
    expect(contains(window, view)).toBe(true);
    expect(contains(window, viewRect([0, -1000 + 150, 1], pane))).toBe(true);
    expect(contains(window, viewRect([0, -1000 - 250, 1], pane))).toBe(false);
    expect(contains(window, viewRect([0, -1000, 0.5], pane))).toBe(false);
  });
});

describe('the nodes given for a window', () => {
  const window = windowAround(viewRect([0, 0, 1], pane));
  const ids = idsInWindow(graph, laidOut, window);
  const meeting = new Set(
    graph.nodes
      .filter((n) => {
        const box = laidOut.nodes[n.id];
        return box.x < window.x + window.width && window.x < box.x + box.width && box.y < window.y + window.height && window.y < box.y + box.height;
      })
      .map((n) => n.id),
  );

  it('holds the nodes whose box meets the window, a small part of a long graph', () => {
    expect(meeting.size).toBeGreaterThan(3);
    for (const id of meeting) expect(ids.has(id)).toBe(true);
    expect(ids.size).toBeLessThan(graph.nodes.length / 10);
  });

  it('holds the far end of every edge of theirs (the loop back from the last step)', () => {
    expect(laidOut.nodes['step:back'].y).toBeGreaterThan(window.y + window.height);
    expect(graph.edges.some((e) => e.source === 'step:back' && e.target === 'step:s1')).toBe(true);
    expect(ids.has('step:s1')).toBe(true);
    expect(ids.has('step:back')).toBe(true);
    for (const edge of graph.edges.filter((e) => meeting.has(e.source) || meeting.has(e.target))) expect([ids.has(edge.source), ids.has(edge.target)], edge.id).toEqual([true, true]);
  });

  it('keeps a node being dragged, wherever its box is', () => {
    expect(ids.has('step:s100')).toBe(false);
    expect(idsInWindow(graph, laidOut, window, { 'step:s100': { x: 0, y: 0 } }).has('step:s100')).toBe(true);
  });
});

describe('the opening view', () => {
  it('fits every node of a canvas drawing them all, the first pane of one drawing only what is in view', () => {
    const ids = Object.keys(laidOut.nodes);
    expect(openingBounds(laidOut, pane, true)).toEqual(boundsOf(laidOut, ids));
    const first = openingBounds(laidOut, pane, false)!;
    expect(first).toEqual(boundsMeeting(laidOut, { x: 0, y: 0, ...pane }));
    expect(first.y).toBe(Math.min(...ids.map((id) => laidOut.nodes[id].y)));
    expect(first.y + first.height).toBeLessThan(pane.height + 100);
  });
});
