/**
 * Run-time nodes found again: the nodes a block expansion or a pushed act built are re-created
 * from the definitions stored on the task that built them (its `expansion` and `pushed`), under
 * that task's node, the first time a task asks for one — after a reload (runtime/restore.ts) or
 * after a migration moved their builder to another version's node (migrate.ts).
 */
import type { Process } from './process.ts';
import { compileDynamic } from './tree/compile.ts';
import type { Node } from './tree/node.ts';

export function dynamicNode(proc: Process, origin: string, id: string): Node | undefined {
  if (!proc.hasDynamic(origin)) {
    const owner = proc.tasks.get(origin);
    if (owner?.expansion) {
      proc.registerDynamic(origin, compileDynamic(owner.expansion.acts, owner.node, owner.expansion.mode, origin).nodes);
    }
    if (owner && owner.pushed.length > 0) proc.registerDynamic(origin, compileDynamic(owner.pushed, owner.node, 'parallel', origin).nodes);
  }
  return proc.dynamicNode(origin, id);
}
