/**
 * The tRPC instance and the procedure builders every router uses:
 * - every error goes through errors.ts (a stable `code` in `data`, no stack);
 * - CSRF: a mutation authenticated by the session cookie (or by nothing, like `auth.login`) must
 *   carry the header `x-acts-csrf: 1`. Browsers cannot send a custom header cross-site without a
 *   CORS preflight, which this server never grants, so a forged form or fetch from another site
 *   fails. Bearer-token calls carry no ambient credential and need no header;
 * - `allowed(permission)` checks the caller against policy.ts.
 */
import { initTRPC } from '@trpc/server';
import { ActError } from '../engine/errors.ts';
import type { ApiContext } from './context.ts';
import { asTrpcError, publicError, toActError, type ApiErrorData } from './errors.ts';
import { requirePermission, type Permission } from './policy.ts';

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

const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause === undefined || result.error.code === 'PAYLOAD_TOO_LARGE') return result;
  return { ...result, error: asTrpcError(cause) };
});

const csrf = t.middleware(({ ctx, type, next }) => {
  if (type === 'mutation' && ctx.caller?.via !== 'token' && !ctx.csrfHeader) {
    throw new ActError('auth.forbidden', 'mutations signed in by cookie need the header x-acts-csrf: 1');
  }
  return next();
});

/** Anyone may call (login, setup); mutations still need the CSRF header. */
export const publicProcedure = t.procedure.use(mapErrors).use(csrf);

/** Callers with `permission`; `ctx.caller` is non-null inside. */
export function allowed(permission: Permission) {
  return publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, caller: requirePermission(ctx.caller, permission) } }));
}
