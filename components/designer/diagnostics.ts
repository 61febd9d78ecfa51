/**
 * Validation problems → CodeMirror diagnostics: a problem with a position underlines the rest of
 * its line from that column; one with only a path underlines the first line of the node it is
 * pinned to (via the graph's source ranges). Offsets are clamped to the text, so problems of a
 * slightly older text never throw.
 */
import type { Diagnostic } from '@codemirror/lint';
import { problemLocator, type DesignerGraph, type ProblemLike } from './model/index.ts';

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function toDiagnostics(text: string, graph: DesignerGraph, problems: readonly ProblemLike[]): Diagnostic[] {
  const starts = lineStarts(text);
  const locate = problemLocator(graph);
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1] - 1 : text.length);
  return problems.map((problem) => {
    const position = problem.position ?? (problem.line === undefined ? undefined : { line: problem.line, col: problem.column ?? 1 });
    let line: number;
    let from: number;
    if (position) {
      line = Math.min(Math.max(position.line - 1, 0), starts.length - 1);
      from = Math.min(starts[line] + Math.max(position.col - 1, 0), lineEnd(line));
    } else {
      const start = byId.get(locate(problem))?.range?.start ?? 0;
      line = Math.max(0, starts.findLastIndex((s) => s <= start));
      from = Math.min(start, text.length);
    }
    const to = Math.max(lineEnd(line), from + 1);
    return { from: Math.min(from, text.length), to: Math.min(to, text.length), severity: 'error', message: problem.message, source: problem.code };
  });
}
