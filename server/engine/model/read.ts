/**
 * Reads the source text into plain data, with a way back from a path to a line and column.
 *
 * YAML goes through the `yaml` parser (document + `LineCounter`). Text that starts with `{` or `[`
 * is first tried with `JSON.parse`, which is an order of magnitude faster; the YAML document of a
 * JSON text is then only built when a problem needs a position. On that fast path JSON semantics
 * apply: a duplicate key keeps its last value, and a number in a text field reads as JavaScript
 * prints it (`"name": 1.10` → "1.1"; in YAML the author's text "1.10" is kept).
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import { createLocator, positionAt, type Locate } from './locate.ts';
import { keepScalarText } from './scalar-text.ts';
import { jsonProblem, yamlProblems } from './syntax.ts';
import type { ModelProblem, SourcePosition } from './types.ts';

export type SourceFormat = 'yaml' | 'json' | 'auto';

export interface ReadResult {
  /** The document as plain data; absent when there are syntax problems. */
  data?: unknown;
  problems: ModelProblem[];
  locate: Locate;
  /** The line and column of a character offset of the source. */
  positionOf: (offset: number) => SourcePosition;
}

const MAX_ALIAS_COUNT = 100;

interface ParsedYaml {
  doc: Document;
  lineCounter: LineCounter;
  locate: Locate;
}

function parseYaml(source: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false });
  return { doc, lineCounter, locate: createLocator(doc, lineCounter) };
}

/** A `Locate` that parses the YAML document on first use only. */
function lazyLocator(source: string): { locate: Locate; yaml: () => ParsedYaml } {
  let parsed: ParsedYaml | undefined;
  const yaml = () => (parsed ??= parseYaml(source));
  return { yaml, locate: (path) => yaml().locate(path) };
}

export function readSource(source: string, format: SourceFormat = 'auto'): ReadResult {
  const lazy = lazyLocator(source);
  const positionOf = (offset: number) => positionAt(lazy.yaml().lineCounter, offset);
  const looksLikeJson = format === 'json' || (format === 'auto' && /^\s*[{[]/.test(source));
  let jsonError: unknown;
  if (looksLikeJson) {
    try {
      return { data: JSON.parse(source), problems: [], locate: lazy.locate, positionOf };
    } catch (err) {
      jsonError = err;
    }
  }
  const firstYamlError = () => {
    const err = lazy.yaml().doc.errors[0];
    return err ? positionOf(err.pos[0]) : undefined;
  };
  if (format === 'json') return { problems: [jsonProblem(jsonError, positionOf, firstYamlError)], locate: lazy.locate, positionOf };

  const { doc, locate } = lazy.yaml();
  if (doc.errors.length) {
    const problems = jsonError
      ? [jsonProblem(jsonError, positionOf, firstYamlError)]
      : yamlProblems(doc.errors, positionOf, 'yaml.syntax');
    return { problems, locate, positionOf };
  }
  keepScalarText(doc);
  try {
    return { data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), problems: [], locate, positionOf };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { problems: [{ code: 'yaml.syntax', message, path: '' }], locate, positionOf };
  }
}
