/**
 * Opens YAML text for the designer and the structural diff (vocab/model-diff): a tolerant
 * `parseDocument` with a line counter, the element tree with node ids, source ranges, and the
 * syntax errors as engine-shaped problems.
 *
 * State: the last two texts opened and what they gave, shared by everything that reads the same
 * text (the graph, the property panel's values, the run dialog's inputs, a version comparison's
 * two texts and their diff) — a parse of a 200-node model takes ~10 ms, and an edit used to parse
 * the new text once per reader and render. What it gives
 * is read-only: edits change a copy of the document (edit-document.ts).
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import { readElements, type Element } from './elements.ts';
import { assignNodeIds } from './node-ids.ts';
import type { ModelProblem } from '../model-problems.ts';
import type { SourceRange } from '../graph.ts';

export interface OpenedSource {
  doc: Document;
  /** Every element, parents before children; `elements[0]` is the workflow. */
  elements: Element[];
  errors: ModelProblem[];
  rangeOf(element: Element): SourceRange | undefined;
}

/** Reads the element tree of an in-memory document and gives every element its node id. */
export function elementsOf(doc: Document): Element[] {
  const elements = readElements(doc);
  assignNodeIds(elements);
  return elements;
}

/** The texts last opened, the latest first (two: a comparison reads both of its texts in turn). */
let recent: { source: string; opened: OpenedSource }[] = [];
const KEPT = 2;

export function openSource(source: string): OpenedSource {
  const kept = recent.find((entry) => entry.source === source);
  if (kept) return kept.opened;
  const opened = parseSource(source);
  recent = [{ source, opened }, ...recent].slice(0, KEPT);
  return opened;
}

/** Opens `source` without keeping it (`openSource` keeps the last two). */
export function parseSource(source: string): OpenedSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false });
  const at = (offset: number) => lineCounter.linePos(offset);
  const errors = doc.errors.map(
    (err): ModelProblem => ({ code: 'yaml.syntax', message: err.message, path: '', position: at(err.pos[0]) }),
  );
  const rangeOf = (element: Element): SourceRange | undefined => {
    const node = element.map ?? doc.contents;
    const range = node?.range;
    if (!range) return undefined;
    const [start, , end] = range;
    return { start, end, from: at(start), to: at(end) };
  };
  return { doc, elements: elementsOf(doc), errors, rangeOf };
}
