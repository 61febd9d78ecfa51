/** One-line rendering of a problem for the CLI: `file:line:col: message [code] (at path)`. */
import type { ModelProblem } from './types.ts';

export function formatProblem(p: ModelProblem, file?: string): string {
  const where = [file, p.position?.line, p.position?.col].filter((part) => part !== undefined && part !== '').join(':');
  const at = p.path ? ` (at ${p.path})` : '';
  return `${where ? `${where}: ` : ''}${p.message} [${p.code}]${at}`;
}
