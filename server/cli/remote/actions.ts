/**
 * The client actions the server's tasks router offers, one procedure each. The list is checked
 * against the router's type, so the CLI and the API cannot drift apart unnoticed.
 * Kept free of runtime imports: the command definitions read it without loading the client.
 */
import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '../../api/router.ts';

export const TASK_ACTIONS = ['complete', 'submit', 'back', 'cancel', 'abort', 'skip', 'error', 'push', 'remove', 'set-vars', 'outcome'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/** The tasks router's procedure of an action (the spec's `set-vars` is `setVars`). */
export const PROCEDURE = { 'set-vars': 'setVars' } as const;
type Procedure<A extends TaskAction> = A extends keyof typeof PROCEDURE ? (typeof PROCEDURE)[A] : A;
export const procedureOf = <A extends TaskAction>(action: A): Procedure<A> =>
  ((PROCEDURE as Record<string, string>)[action] ?? action) as Procedure<A>;

type RouterActions = Exclude<keyof inferRouterInputs<AppRouter>['tasks'], 'get' | 'history'>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to compile when an action is listed here but not a procedure, or the other way round.
export const ACTIONS_MATCH_ROUTER: Same<Procedure<TaskAction>, RouterActions> = true;

/** Whether `name` is one of the server's task actions. */
export function isTaskAction(name: string): name is TaskAction {
  return (TASK_ACTIONS as readonly string[]).includes(name);
}
