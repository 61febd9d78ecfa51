/** Node ids: the model id is required, and ids are unique across nodes and triggers (spec 1.6(5)). */
import type { Locate } from './locate.ts';
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import type { ModelProblem, Workflow } from './types.ts';
import { walkWorkflow } from './walk.ts';

interface Occurrence {
  kind: string;
  /** Path of the node (its `id` field is at `<path>.id`). */
  path: string;
  line?: number;
  col?: number;
}

function byPosition(a: Occurrence, b: Occurrence): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}

/** Sorts the occurrences of one id into document order when every one of them can be located. */
function inDocumentOrder(list: Occurrence[], locate?: Locate): Occurrence[] {
  if (!locate) return list;
  for (const o of list) {
    const position = locate(joinPath(o.path, 'id'));
    o.line = position?.line;
    o.col = position?.col;
  }
  return list.every((o) => o.line !== undefined) ? list.sort(byPosition) : list;
}

function describe(o: Occurrence): string {
  const where = o.path ? `${o.kind} at ${o.path}` : 'model itself';
  return o.line ? `${where} (line ${o.line})` : where;
}

export function idProblems(workflow: Workflow, locate?: Locate): ModelProblem[] {
  const problems: ModelProblem[] = [];
  if (!workflow.id.trim()) {
    problems.push(problem('model.missing_id', 'id', 'the model has no id: add `id: <name>` at the top'));
  }

  const seen = new Map<string, Occurrence[]>();
  const add = (id: string, kind: string, path: string) => {
    if (!id) return;
    const list = seen.get(id);
    if (list) list.push({ kind, path });
    else seen.set(id, [{ kind, path }]);
  };
  add(workflow.id, 'workflow', '');
  walkWorkflow(workflow, {
    step: (node, path) => add(node.id, 'step', path),
    branch: (node, path) => add(node.id, 'branch', path),
    act: (node, path) => add(node.id, 'act', path),
    trigger: (node, path) => add(node.id, 'trigger', path),
  });

  for (const [id, list] of seen) {
    if (list.length < 2) continue;
    const [first, ...rest] = inDocumentOrder(list, locate);
    for (const dup of rest) {
      problems.push(
        problem(
          'model.duplicate_id',
          joinPath(dup.path, 'id'),
          `duplicate id '${id}': the ${describe(first)} already uses it; ids must be unique across the model's steps, branches, acts and triggers`,
        ),
      );
    }
  }
  return problems;
}
