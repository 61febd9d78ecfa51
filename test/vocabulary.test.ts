/**
 * One source for each shared vocabulary (vocab/): no state or role list written again elsewhere,
 * the studio takes no value from server/, vocab/ imports nothing but itself and the yaml parser, and every error or
 * problem code the source builds is in the code tables (and every listed code is built).
 */
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { trpcCode } from '../server/api/errors.ts';
import { RemoteFailure } from '../server/cli/remote/failure.ts';
import { ENGINE_CODES } from '../vocab/engine-codes.ts';
import { PROBLEM_CODES } from '../vocab/model-problems.ts';
import { MIGRATION_PROBLEMS } from '../vocab/migration.ts';
import { ROLES } from '../vocab/roles.ts';
import { API_CODES, CLI_CODES, HTTP_CODES, STUDIO_CODES, type ErrorCode } from '../vocab/server-codes.ts';
import { TASK_STATES } from '../vocab/states.ts';
import { codeUses, importsOf, literalLists, sourceFiles } from './helpers/source-scan.ts';

const SOURCE = sourceFiles('server', 'components', 'app', 'bin', 'scripts', 'vocab');
const STUDIO = SOURCE.filter(({ file }) => file.startsWith('components/') || file.startsWith('app/'));

/** Lists (arrays, sets, enums) naming at least `min` of `names`, outside `home`. */
function listsOf(names: readonly string[], min: number, home: string): string[] {
  return SOURCE.filter(({ file }) => file !== home).flatMap(({ file, text }) =>
    literalLists(text)
      .map((list) => [...new Set(list.filter((item) => names.includes(item)))])
      .filter((hits) => hits.length >= min)
      .map((hits) => `${file}: [${hits.join(', ')}]`),
  );
}

describe('one list of each vocabulary', () => {
  it('no list of three or more task states outside vocab/states.ts', () => {
    expect(listsOf(TASK_STATES, 3, 'vocab/states.ts')).toEqual([]);
  });

  it('no list of three or more roles outside vocab/roles.ts', () => {
    expect(listsOf(ROLES, 3, 'vocab/roles.ts')).toEqual([]);
  });
});

describe('imports', () => {
  it('components/ and app/ import no value from server/ (shared values come from vocab/)', () => {
    const values = STUDIO.flatMap(({ file, text }) =>
      importsOf(text)
        .filter((i) => !i.typeOnly && /(^|\/)server\//.test(i.from))
        .map((i) => `${file}: ${i.from}`),
    );
    expect(values).toEqual([]);
  });

  it('vocab/ is framework-free: it imports only its own modules and the YAML parser (the models\' text format)', () => {
    const own = (file: string, from: string) => from.startsWith('.') && path.posix.normalize(path.posix.join(path.posix.dirname(file), from)).startsWith('vocab/');
    const outside = SOURCE.filter(({ file }) => file.startsWith('vocab/')).flatMap(({ file, text }) =>
      importsOf(text)
        .filter((i) => !own(file, i.from) && i.from !== 'yaml')
        .map((i) => `${file}: ${i.from}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('error and problem codes', () => {
  const errorTables = { ...ENGINE_CODES, ...API_CODES, ...HTTP_CODES, ...CLI_CODES, ...STUDIO_CODES };
  const errorCodes = new Set(Object.keys(errorTables));
  const problemCodes = new Set<string>([...PROBLEM_CODES, ...Object.keys(MIGRATION_PROBLEMS)]);
  const uses = SOURCE.filter(({ file }) => !file.startsWith('vocab/')).flatMap(codeUses);

  it('every code an error is built with is in the error tables', () => {
    const missing = uses.filter((u) => u.how === 'error' && !errorCodes.has(u.code));
    expect(missing.map((u) => `${u.file}: '${u.code}'`)).toEqual([]);
  });

  it('every `code:` written and every problem() code is an error or a problem code', () => {
    const missing = uses.filter((u) => u.how !== 'error' && !errorCodes.has(u.code) && !problemCodes.has(u.code));
    expect(missing.map((u) => `${u.file}: '${u.code}'`)).toEqual([]);
  });

  it('every listed code is built somewhere', () => {
    const built = new Set(uses.map((u) => u.code));
    expect([...errorCodes, ...problemCodes].filter((code) => !built.has(code))).toEqual([]);
  });

  it('no code is listed twice', () => {
    const tables = [ENGINE_CODES, API_CODES, HTTP_CODES, CLI_CODES, STUDIO_CODES].flatMap((t) => Object.keys(t));
    expect(tables.length).toBe(errorCodes.size);
    expect([...problemCodes].filter((code) => errorCodes.has(code))).toEqual([]);
  });

  it('the engine never builds a server code', () => {
    const server = new Set<string>([...Object.keys(API_CODES), ...Object.keys(HTTP_CODES), ...Object.keys(CLI_CODES), ...Object.keys(STUDIO_CODES)]);
    const inEngine = uses.filter((u) => u.file.startsWith('server/engine/') && server.has(u.code));
    expect(inEngine.map((u) => `${u.file}: '${u.code}'`)).toEqual([]);
  });

  it("the API answers each code with its table's HTTP status", () => {
    for (const [code, traits] of Object.entries({ ...ENGINE_CODES, ...API_CODES })) {
      const status = getHTTPStatusCodeFromError(new TRPCError({ code: trpcCode(code as ErrorCode) }));
      expect([code, status]).toEqual([code, traits.http]);
    }
  });

  it("the CLI's retryable flag and exit 2 are the tables' data", () => {
    expect(new RemoteFailure('engine.busy', '').retryable).toBe(true);
    expect(new RemoteFailure('process.elsewhere', '').retryable).toBe(false);
    expect(new RemoteFailure('no.such_code', '').retryable).toBe(false);
    expect(new RemoteFailure('process.invalid_pid', '').exit).toBe(2);
    expect(new RemoteFailure('package.invalid', '').exit).toBe(6);
  });
});
