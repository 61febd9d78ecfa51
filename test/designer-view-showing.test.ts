/** The designer's view follows the selection by the smallest shift that shows the node whole (view-showing.ts). */
import { describe, expect, it } from 'vitest';
import { viewShowing } from '../components/designer/view-showing.ts';

const pane = { width: 400, height: 300 };
const box = (x: number, y: number) => ({ x, y, width: 100, height: 40 });

describe('viewShowing', () => {
  it('leaves a view that shows the node whole alone', () => {
    expect(viewShowing(box(100, 100), { x: 0, y: 0, zoom: 1 }, pane)).toBeNull();
  });

  it('shifts a node below the pane up to the margin, keeping the zoom', () => {
    expect(viewShowing(box(100, 1000), { x: 0, y: 0, zoom: 1 }, pane, 20)).toEqual({ x: 0, y: 300 - 20 - 1040, zoom: 1 });
  });

  it('shifts a node left of and above the pane at zoom 2', () => {
    expect(viewShowing(box(-100, -50), { x: 0, y: 0, zoom: 2 }, pane, 10)).toEqual({ x: 210, y: 110, zoom: 2 });
  });

  it('centres a node larger than the pane', () => {
    expect(viewShowing({ x: 0, y: 0, width: 1000, height: 40 }, { x: 0, y: 0, zoom: 1 }, pane, 10)).toEqual({ x: -300, y: 10, zoom: 1 });
  });
});
