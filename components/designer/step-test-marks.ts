/**
 * What the canvas shows of step tests: a mark per graph node (passed, failed, waiting, ran), from
 * the panel's last run of one node or the Tests panel's verdicts of the saved cases; and how a
 * test names a node (its id, or an act's key) in both directions.
 */
import type { DesignerGraph, GraphNode } from './model/index.ts';
import type { StepTestResult, StepTestVerdict } from '../../vocab/step-tests.ts';

export interface TestMark {
  tone: 'pass' | 'fail' | 'wait';
  label: string;
}

/** Whether the panel can test this node: a step or act. */
export const testable = (node: GraphNode): boolean => node.kind === 'step' || node.kind === 'act' || node.kind === 'hook';

/** The name a step test gives `node`: its id, else an act's key; null when it has neither. */
export function nodeRefOf(node: GraphNode): string | null {
  if (!testable(node)) return null;
  return node.elementId ?? (node.kind === 'step' ? null : (node.key ?? null));
}

/** The graph node a test's `node` names. */
export function graphNodeOf(graph: DesignerGraph, ref: string): GraphNode | undefined {
  return graph.nodes.find((n) => testable(n) && n.elementId === ref) ?? graph.nodes.find((n) => (n.kind === 'act' || n.kind === 'hook') && n.key === ref);
}

/** The mark of one run from the panel (no expectations: how it ended). */
export function runMark(result: StepTestResult): TestMark {
  if (result.end === 'completed') return { tone: 'pass', label: `ran: ${result.state}` };
  if (result.end === 'waiting') return { tone: 'wait', label: 'waiting for an answer' };
  return { tone: 'fail', label: `${result.end}: ${result.error?.ecode || result.error?.message || ''}` };
}

/** Marks of the saved cases' verdicts: a node fails when any of its cases failed. */
export function verdictMarks(graph: DesignerGraph, verdicts: readonly StepTestVerdict[]): Record<string, TestMark> {
  const byNode = new Map<string, StepTestVerdict[]>();
  for (const v of verdicts) {
    const node = graphNodeOf(graph, v.node);
    if (node) byNode.set(node.id, [...(byNode.get(node.id) ?? []), v]);
  }
  const marks: Record<string, TestMark> = {};
  for (const [id, list] of byNode) {
    const failed = list.filter((v) => !v.pass).length;
    marks[id] = failed ? { tone: 'fail', label: `${failed} of ${list.length} tests failed` } : { tone: 'pass', label: `${list.length} test${list.length === 1 ? '' : 's'} passed` };
  }
  return marks;
}
