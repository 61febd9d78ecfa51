/** Prints a compiled node tree as indented text (the `tree` format of `models.get`, spec 3.7). */
import type { NodeTree } from './compile.ts';
import { asAct, type Node } from './node.ts';

function label(node: Node): string {
  const name = node.content.name ? ` "${node.content.name}"` : '';
  const uses = node.kind === 'act' ? ` (${asAct(node).uses})` : '';
  return `${node.kind} ${node.id}${name}${uses}`;
}

export function printTree(tree: NodeTree): string {
  const lines: string[] = [];
  const visit = (node: Node, depth: number, seen: Set<Node>) => {
    const pad = '  '.repeat(depth);
    lines.push(`${pad}${label(node)}`);
    for (const hook of node.hooks) lines.push(`${pad}  on ${hook.event}: ${label(hook.act)}`);
    for (const rule of node.catches) {
      lines.push(`${pad}  catch ${rule.on ?? '*'}:`);
      if (rule.head) chain(rule.head, depth + 2, seen);
    }
    for (const rule of node.timeouts) {
      lines.push(`${pad}  timeout ${rule.on}:`);
      if (rule.head) chain(rule.head, depth + 2, seen);
    }
    for (const head of node.heads) chain(head, depth + 1, seen);
  };
  const chain = (head: Node, depth: number, seen: Set<Node>) => {
    for (let n: Node | null = head; n; n = n.next) {
      if (seen.has(n)) {
        lines.push(`${'  '.repeat(depth)}→ next ${n.id}`);
        return;
      }
      seen.add(n);
      visit(n, depth, seen);
    }
  };
  visit(tree.root, 0, new Set([tree.root]));
  return lines.join('\n');
}
