/** Maps a problem path (`steps[1].acts[0].uses`) back to the line and column of its YAML node. */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import { parsePath } from './paths.ts';
import type { SourcePosition } from './types.ts';

export type Locate = (path: string) => SourcePosition | undefined;

/** 1-based line and column of a character offset. */
export function positionAt(lineCounter: LineCounter, offset: number): SourcePosition {
  const { line, col } = lineCounter.linePos(offset);
  return { line, col };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

/**
 * A `Locate` for a parsed document. A path that goes further than the document (a missing field,
 * a generated id) resolves to the deepest node that exists, e.g. the act that lacks `uses`.
 */
export function createLocator(doc: Document, lineCounter: LineCounter): Locate {
  return (path) => {
    let node: unknown = doc.contents;
    let offset = rangeStart(node);
    for (const segment of parsePath(path)) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(segment));
        if (!pair) break;
        node = pair.value ?? pair.key;
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        node = node.items[segment];
      } else {
        break;
      }
      offset = rangeStart(node) ?? offset;
    }
    return offset === undefined ? undefined : positionAt(lineCounter, offset);
  };
}
