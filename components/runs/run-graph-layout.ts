/**
 * The run graph's direction (the user's choice, kept in the browser) and laying the graph out
 * ahead: the run page lays out its model while the server still gathers the tasks (layout.ts
 * keeps the last layout), so the first drawing once they arrive does not wait for it — unless the
 * run is folded (stretches.ts), whose graph is laid out then.
 */
import { layout, type DesignerGraph, type LayoutDirection } from '../designer/model/index.ts';
import { storedFlag } from './use-stored-flag.ts';

/** The stored flag of the left-to-right choice. */
export const LEFT_TO_RIGHT_FLAG = 'run-graph.left-to-right';

export const directionOf = (leftToRight: boolean): LayoutDirection => (leftToRight ? 'LR' : 'TB');

/** Lays `graph` out in the direction the user chose (the result is kept by layout.ts). */
export function layOutAhead(graph: DesignerGraph): void {
  layout(graph, { direction: directionOf(storedFlag(LEFT_TO_RIGHT_FLAG, false)) });
}
