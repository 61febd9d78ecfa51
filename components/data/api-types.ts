/**
 * Types of the API as the studio sees it, derived from the server's `AppRouter` (type-only: no
 * server code reaches the browser). A procedure is named by its dotted path, `'models.list'`,
 * which is also the first element of its React Query key.
 */
import type { AppRouter } from '../../server/api/router.ts';

type Record_ = AppRouter['_def']['record'];
type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; $types: { input: unknown; output: unknown } } };

type PathsOf<Kind extends string> = {
  [R in keyof Record_ & string]: {
    [P in keyof Record_[R] & string]: Record_[R][P] extends { _def: { type: Kind } } ? `${R}.${P}` : never;
  }[keyof Record_[R] & string];
}[keyof Record_ & string];

/** `'models.list'`, `'processes.get'` … every query procedure. */
export type QueryPath = PathsOf<'query'>;
/** `'models.deploy'`, `'auth.login'` … every mutation procedure. */
export type MutationPath = PathsOf<'mutation'>;
export type ApiPath = QueryPath | MutationPath;

type ProcedureAt<P extends ApiPath> = P extends `${infer R}.${infer N}`
  ? R extends keyof Record_
    ? N extends keyof Record_[R]
      ? Record_[R][N] extends Procedure
        ? Record_[R][N]
        : never
      : never
    : never
  : never;

/** What a procedure takes (what the client sends, before server defaults). */
export type ApiInput<P extends ApiPath> = ProcedureAt<P>['_def']['$types']['input'];
/** What a procedure returns. */
export type ApiOutput<P extends ApiPath> = ProcedureAt<P>['_def']['$types']['output'];
