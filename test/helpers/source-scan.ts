/**
 * Reads the repository's source text for the vocabulary checks (test/vocabulary.test.ts): the
 * files of some top-level folders, their import statements, the string-literal lists they write,
 * and the code literals of the errors and problems they build.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface SourceFile {
  /** Repository-relative, with `/`. */
  file: string;
  text: string;
}

/** Every .ts/.tsx/.mjs file under the given top-level folders (generated code left out). */
export function sourceFiles(...dirs: string[]): SourceFile[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name))
      .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter((file) => !file.includes('/generated/'))
      .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
  );
}

const literals = (text: string): string[] => [...text.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"/g)].map((m) => m[1] ?? m[2]);

/** The string literals of each bracketed list (`[…]`: arrays, `new Set([…])`, `z.enum([…])`). */
export function literalLists(text: string): string[][] {
  return [...text.matchAll(/\[([^[\]]*)\]/g)].map((m) => literals(m[1]));
}

export interface ImportOf {
  /** The module specifier as written. */
  from: string;
  /** Whether only types are imported (`import type`, or every name marked `type`). */
  typeOnly: boolean;
}

/** The static imports and re-exports of a file, and its dynamic `import('…')` calls (never type-only). */
export function importsOf(text: string): ImportOf[] {
  const statics = [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm)].map((m) => {
    const names = /^\{([^}]*)\}$/.exec(m[2].trim())?.[1].split(',').map((n) => n.trim()).filter(Boolean);
    const typeOnly = m[1] !== undefined || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type ')));
    return { from: m[3], typeOnly };
  });
  const bare = [...text.matchAll(/^import\s+['"]([^'"]+)['"]/gm)].map((m) => ({ from: m[1], typeOnly: false }));
  const dynamic = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => ({ from: m[1], typeOnly: false }));
  return [...statics, ...bare, ...dynamic];
}

export interface CodeUse {
  code: string;
  file: string;
  /** `error`: `new ActError|RemoteFailure|ApiError(…)`; `field`: a `code: '…'` property; `problem`: `problem('…', …)`. */
  how: 'error' | 'field' | 'problem';
}

/** The code literals of the errors and problems a file builds or returns. */
export function codeUses({ file, text }: SourceFile): CodeUse[] {
  const uses: CodeUse[] = [];
  for (const m of text.matchAll(/new (?:ActError|RemoteFailure|ApiError)\(\s*([^,()]*)[,)]/g)) {
    for (const code of literals(m[1])) uses.push({ code, file, how: 'error' });
  }
  for (const m of text.matchAll(/\bcode:\s*'([^']*)'/g)) uses.push({ code: m[1], file, how: 'field' });
  for (const m of text.matchAll(/\bproblem\(\s*'([^']*)'/g)) uses.push({ code: m[1], file, how: 'problem' });
  return uses;
}
