/**
 * Pins validation problems to graph nodes. A problem belongs to the deepest node whose YAML path
 * starts its path (`steps[1].acts[0].uses` → that act, `steps[1]` → the step, `on[0].cron` → the
 * trigger); a path that names no node (`inputs_schema`, `''`, an unknown path) goes to the node
 * whose source range holds the problem's position, else to the workflow node.
 */
import { WORKFLOW_NODE_ID, type DesignerGraph, type GraphNode } from '../../../vocab/graph.ts';
import type { SourcePosition } from '../../../vocab/model-problems.ts';

/**
 * A problem as the engine (`ModelProblem`: `position: { line, col }`) or a client
 * (`line` / `column`) reports it.
 */
export interface ProblemLike {
  path: string;
  message: string;
  code?: string;
  position?: SourcePosition;
  line?: number;
  column?: number;
}

export type PinnedProblem<P extends ProblemLike = ProblemLike> = P & { nodeId: string };

/** The path without its last segment (`a.b[2]` → `a.b`, `a["x y"]` → `a`); `undefined` for `''`. */
export function parentPath(path: string): string | undefined {
  if (!path) return undefined;
  const match = /(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])$/.exec(path);
  return match ? path.slice(0, match.index) : '';
}

function positionOf(problem: ProblemLike): SourcePosition | undefined {
  if (problem.position) return problem.position;
  return problem.line === undefined ? undefined : { line: problem.line, col: problem.column ?? 1 };
}

function before(a: SourcePosition, b: SourcePosition): boolean {
  return a.line < b.line || (a.line === b.line && a.col <= b.col);
}

/** The innermost node whose range holds `at` (nodes come parents first, so the last match wins). */
function nodeAt(nodes: readonly GraphNode[], at: SourcePosition): GraphNode | undefined {
  let found: GraphNode | undefined;
  for (const node of nodes) {
    if (node.kind !== 'start' && node.range && before(node.range.from, at) && before(at, node.range.to)) found = node;
  }
  return found;
}

/** Builds a function that finds the node of one problem; reuse it for many problems. */
export function problemLocator(graph: DesignerGraph): (problem: ProblemLike) => string {
  const byPath = new Map<string, string>();
  for (const node of graph.nodes) if (node.kind !== 'start' && node.kind !== 'end') byPath.set(node.path, node.id);
  return (problem) => {
    for (let path: string | undefined = problem.path; path; path = parentPath(path)) {
      const id = byPath.get(path);
      if (id) return id;
    }
    const at = positionOf(problem);
    return (at && nodeAt(graph.nodes, at)?.id) ?? WORKFLOW_NODE_ID;
  };
}

/** Each problem with the id of the node it belongs to. */
export function pinProblems<P extends ProblemLike>(graph: DesignerGraph, problems: readonly P[]): PinnedProblem<P>[] {
  const locate = problemLocator(graph);
  return problems.map((problem) => ({ ...problem, nodeId: locate(problem) }));
}

/** Problems grouped by node id (for the red corner badge and its hover list). */
export function problemsByNode<P extends ProblemLike>(graph: DesignerGraph, problems: readonly P[]): Map<string, P[]> {
  const locate = problemLocator(graph);
  const byNode = new Map<string, P[]>();
  for (const problem of problems) {
    const id = locate(problem);
    const list = byNode.get(id);
    if (list) list.push(problem);
    else byNode.set(id, [problem]);
  }
  return byNode;
}
