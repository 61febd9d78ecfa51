/**
 * A model must not hold U+0000 (NUL): PostgreSQL cannot store it, in the source text or in a
 * value the process rows would carry (a YAML `"\0"` escape decodes to one). `model.nul` names the
 * first one, so a model that deploys on SQLite also deploys on PostgreSQL.
 */
import { firstNul, showNul } from '../nul-text.ts';
import type { Locate } from './locate.ts';
import { formatPath } from './paths.ts';
import { problem } from './problem.ts';
import type { ModelProblem, SourcePosition } from './types.ts';

const HINT = 'models must not contain the character U+0000 (NUL), which cannot be stored; remove it';

/** The `model.nul` problem of the first NUL in the source text or in its parsed data; [] when none. */
export function nulProblems(source: string, data: unknown, locate: Locate, positionOf: (offset: number) => SourcePosition): ModelProblem[] {
  const at = firstNul(data);
  if (at) {
    const path = formatPath(at.path);
    const where = at.inKey === undefined ? 'this value' : `the key '${showNul(at.inKey)}'`;
    return [{ ...problem('model.nul', path, `${where}: ${HINT}`), position: locate(path) }];
  }
  const offset = source.indexOf('\u0000');
  if (offset < 0) return [];
  return [{ ...problem('model.nul', '', `the source text: ${HINT}`), position: positionOf(offset) }];
}
