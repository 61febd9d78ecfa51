/**
 * The import graph of a part of the repository, read from the source text (test/layers.test.ts):
 * each file with the repository files it imports (type-only imports included: a cycle of types
 * still ties the files together), the packages it imports, and the cycles (strongly connected
 * groups of more than one file, or a file importing itself).
 */
import fs from 'node:fs';
import path from 'node:path';
import { importsOf, sourceFiles } from './source-scan.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ImportGraph {
  files: string[];
  /** Repository files each file imports. */
  edges: Map<string, string[]>;
  /** Package specifiers each file imports (`node:` built-ins left out). */
  packages: Map<string, string[]>;
}

/** Resolves a relative specifier of `from` to a repository file, or undefined. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.join(ROOT, path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(ROOT, candidate).split(path.sep).join('/');
  }
  return undefined;
}

export function importGraph(...dirs: string[]): ImportGraph {
  const sources = sourceFiles(...dirs).filter((f) => !f.file.endsWith('.d.ts'));
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const { file, text } of sources) {
    const imports = importsOf(text);
    edges.set(file, [...new Set(imports.filter((i) => i.from.startsWith('.')).map((i) => resolve(file, i.from)).filter((f): f is string => f !== undefined))]);
    packages.set(file, [...new Set(imports.map((i) => i.from).filter((s) => !s.startsWith('.') && !s.startsWith('node:')))]);
  }
  return { files: sources.map((s) => s.file), edges, packages };
}

/** The cycles of the graph (Tarjan's strongly connected components), each sorted, largest first. */
export function cyclesOf(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.edges.get(file) ?? []) {
      if (!graph.edges.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      group.push(top);
      if (top === file) break;
    }
    if (group.length > 1 || (graph.edges.get(file) ?? []).includes(file)) out.push(group.sort());
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return out.sort((a, b) => b.length - a.length);
}
