/**
 * The tRPC instance and the procedure builders every router uses:
 * - every error goes through errors.ts (a stable `code` in `data`, no stack);
 * - CSRF: a mutation authenticated by the session cookie (or by nothing, like `auth.login`) must
 *   carry the header `x-acts-csrf: 1`. Browsers cannot send a custom header cross-site without a
 *   CORS preflight, which this server never grants, so a forged form or fetch from another site
 *   fails. Bearer-token calls carry no ambient credential and need no header;
 * - no input string may hold U+0000 (nul-guard.ts), checked before any schema or permission;
 * - `allowed(permission)` checks the caller against policy.ts;
 * - `publicAudited(…)` also audits calls refused for their input (failed logins stay audited).
 */
import { initTRPC } from '@trpc/server';
import type { z } from 'zod';
import { ActError } from '../engine/errors.ts';
import { recordAudit, type AuditTarget } from './audit.ts';
import type { ApiContext } from './context.ts';
import { asTrpcError, carriesCode, publicError, toActError, type ApiErrorData } from './errors.ts';
import { refuseNul } from './nul-guard.ts';
import { requirePermission } from './policy.ts';
import type { Permission } from '../../vocab/roles.ts';

const t = initTRPC.context<ApiContext>().create({
  isDev: false,
  errorFormatter({ shape, error, path }) {
    const act = toActError(error);
    const pub = publicError(act);
    const data: ApiErrorData = { ...pub, httpStatus: shape.data.httpStatus, path };
    return { ...shape, message: pub.message, data };
  },
});

export const router = t.router;

/** A failed result whose cause carries a code, with the TRPCError of that code. */
function mapErrorsOf<R extends { ok: true } | { ok: false; error: { cause?: unknown } }>(result: R): R {
  if (result.ok) return result;
  const cause = (result as { error: { cause?: unknown } }).error.cause;
  return carriesCode(cause) ? { ...result, error: asTrpcError(cause) } : result;
}

const mapErrors = t.middleware(async ({ next }) => mapErrorsOf(await next()));

function requireCsrf(header: boolean): void {
  if (!header) throw new ActError('auth.forbidden', 'this call needs the header x-acts-csrf: 1 (mutations signed in by cookie)');
}

/** Public mutations (login, setup, logout) always need the header: no login CSRF. */
function requirePublicCsrf(ctx: ApiContext, type: string): void {
  if (type === 'mutation') requireCsrf(ctx.csrfHeader);
}

const csrfAlways = t.middleware(({ ctx, type, next }) => {
  requirePublicCsrf(ctx, type);
  return next();
});

/** Refuses U+0000 anywhere in the raw input, before the procedure's schema parses it. */
const nulFree = t.middleware(async ({ getRawInput, next }) => {
  refuseNul(await getRawInput());
  return next();
});

const base = t.procedure.use(mapErrors);

/**
 * A call's checks: no NUL in its raw input, then `check` (its result passed on); a coded error
 * either throws is thrown as its TRPCError (what mapErrors does for the layers below).
 */
async function passChecks<T>(getRawInput: () => Promise<unknown>, check: () => T): Promise<T> {
  try {
    refuseNul(await getRawInput());
    return check();
  } catch (err) {
    throw carriesCode(err) ? asTrpcError(err) : err;
  }
}

/**
 * Anyone may call (login, setup); mutations need the CSRF header. The hot procedures' checks are
 * one middleware each (mapErrors, nulFree and the check in one): tRPC copies a call's options at
 * every layer, which was ~6 % of the server's CPU under API load.
 */
export const publicProcedure = t.procedure.use(async ({ ctx, type, getRawInput, next }) => {
  await passChecks(getRawInput, () => requirePublicCsrf(ctx, type));
  return mapErrorsOf(await next());
});

const INPUT_REFUSALS = new Set(['input.invalid', 'input.too_large']);

/**
 * A public procedure with input `schema` whose calls refused for their input (a NUL, a failed
 * schema) are audited as `target(rawInput)` says: they never reach the procedure, so its own
 * `audited()` does not run for them. Refusals from the procedure itself are left to it.
 */
export function publicAudited<S extends z.ZodType>(schema: S, target: (rawInput: unknown, ctx: ApiContext) => AuditTarget) {
  const auditRefusals = t.middleware(async ({ ctx, getRawInput, next }) => {
    const inputAccepted = { yes: false };
    const result = await next({ ctx: { inputAccepted } });
    const code = result.ok || inputAccepted.yes ? null : toActError(result.error).code;
    if (code && INPUT_REFUSALS.has(code)) await recordAudit(ctx.services, null, target(await getRawInput(), ctx), code);
    return result;
  });
  return base
    .use(auditRefusals)
    .use(nulFree)
    .use(csrfAlways)
    .input(schema)
    .use(({ ctx, next }) => {
      ctx.inputAccepted.yes = true;
      return next();
    });
}

/** Callers with `permission`; `ctx.caller` is non-null inside. Cookie-signed mutations need the CSRF header. */
export function allowed(permission: Permission) {
  return t.procedure.use(async ({ ctx, type, getRawInput, next }) => {
    const caller = await passChecks(getRawInput, () => {
      const who = requirePermission(ctx.caller, permission);
      if (type === 'mutation' && who.via === 'session') requireCsrf(ctx.csrfHeader);
      return who;
    });
    // tRPC merges the given fields into the call's context
    return mapErrorsOf(await next({ ctx: { caller } }));
  });
}
