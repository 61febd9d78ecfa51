/**
 * Syntax problems of the source text. YAML errors come from the `yaml` parser (all of them, with
 * positions). For JSON documents V8's `JSON.parse` message is used instead: it speaks JSON ("expected
 * ',' or '}' after property value") where the YAML parser would talk about flow collections.
 */
import type { YAMLError } from 'yaml';
import type { ModelProblem, SourcePosition } from './types.ts';

/** Position of a character offset in the source. */
export type PositionOf = (offset: number) => SourcePosition;

export function yamlProblems(errors: readonly YAMLError[], positionOf: PositionOf, code: string): ModelProblem[] {
  return errors.map((err) => ({ code, message: err.message, path: '', position: positionOf(err.pos[0]) }));
}

function jsonErrorPosition(message: string, positionOf: PositionOf): SourcePosition | undefined {
  const lineCol = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), col: Number(lineCol[2]) };
  const offset = /at position (\d+)/.exec(message);
  return offset ? positionOf(Number(offset[1])) : undefined;
}

function cleanJsonMessage(message: string): string {
  return message
    .replace(/^(Unexpected token .+?), ".*" is not valid JSON$/s, '$1')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
}

/**
 * The problem of a `JSON.parse` error. `fallback` positions the messages that carry no offset
 * (V8 omits it for some unexpected tokens).
 */
export function jsonProblem(err: unknown, positionOf: PositionOf, fallback?: () => SourcePosition | undefined): ModelProblem {
  const message = err instanceof Error ? err.message : String(err);
  return {
    code: 'json.syntax',
    message: cleanJsonMessage(message),
    path: '',
    position: jsonErrorPosition(message, positionOf) ?? fallback?.(),
  };
}
