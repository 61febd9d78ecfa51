/**
 * Retired nodes: a finished task whose node a migration's target version does not have keeps a
 * node of its own — its id, kind, name (and an act's package and key) and no rules, successors or
 * children — so the process's history stays whole: the run page, its messages and the scope still
 * name it. A task cancelled by a migration gets one too, with the successor it goes on to in the
 * target version. The task row stores what it needs to be built again after a reload
 * (runtime/rows.ts `NodeRef.retired`).
 */
import type { Act } from '../model/types.ts';
import type { Node, NodeContent, RetiredInfo } from './node.ts';

export type { RetiredInfo };

export function retiredInfo(node: Node): RetiredInfo {
  const act = node.kind === 'act' ? (node.content as Act) : undefined;
  return { kind: node.kind, name: node.content.name, tag: node.content.tag ?? '', uses: act?.uses ?? '', key: act?.key ?? '' };
}

/** A retired node with id `id` under `parent` (the node of its task's parent), going on to `next`. */
export function retiredNode(id: string, info: RetiredInfo, parent: Node | null, next: Node | null = null): Node {
  const content = { id, name: info.name, desc: '', tag: info.tag, uses: info.uses, key: info.key, params: {}, inputs: {}, outputs: {}, setup: [], catches: [], timeout: [], acts: [], branches: [], steps: [] } as unknown as NodeContent;
  return {
    id,
    kind: info.kind,
    level: parent ? parent.level + 1 : 0,
    content,
    parent,
    next,
    heads: [],
    hooks: [],
    catches: [],
    timeouts: [],
    origin: null,
    retired: info,
  };
}

