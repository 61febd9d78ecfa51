/**
 * Node ids of the graph, chosen to survive edits:
 *
 * - the workflow is `workflow` (its end node `workflow:end`);
 * - a step, branch, act or trigger whose YAML `id` is unique in the document (and made of
 *   `[A-Za-z0-9_.-]`) is `<kind>:<id>` (`step:manager`, `act:approve`, `trigger:daily`), so it
 *   keeps its id when it is moved or its siblings are reordered;
 * - any other element is the path from its nearest such ancestor (`step:pay/acts[0]`,
 *   `act:charge/catches[1]`), or its full document path when no ancestor has an id
 *   (`steps[0].acts[1]`). Such a node keeps its id as long as its position under that ancestor holds.
 *
 * A duplicated id falls back to paths for every holder, so two nodes never share an id while the
 * author is typing.
 */
import type { Element } from './elements.ts';

const SAFE_ID = /^[A-Za-z0-9_.-]+$/;

export const WORKFLOW_ID = 'workflow';

/** Number of elements (the workflow included) holding each YAML id. */
export function idCounts(elements: readonly Element[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const element of elements) {
    if (element.elementId) counts.set(element.elementId, (counts.get(element.elementId) ?? 0) + 1);
  }
  return counts;
}

/** Sets `nodeId` on every element; `elements` must list parents before children. */
export function assignNodeIds(elements: readonly Element[]): void {
  const counts = idCounts(elements);
  const anchored = new Set<Element>();
  for (const element of elements) {
    const own = element.elementId;
    if (element.kind === 'workflow') {
      element.nodeId = WORKFLOW_ID;
    } else if (own && counts.get(own) === 1 && SAFE_ID.test(own) && element.kind !== 'catch' && element.kind !== 'timeout') {
      element.nodeId = `${element.kind}:${own}`;
      anchored.add(element);
    } else {
      let anchor = element.parent;
      while (anchor && !anchored.has(anchor)) anchor = anchor.parent;
      element.nodeId = anchor ? `${anchor.nodeId}/${element.path.slice(anchor.path.length + 1)}` : element.path;
    }
  }
}
