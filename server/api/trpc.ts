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
import { asTrpcError, carriesCode, publicError, toActError, type ApiErrorData } from './errors.ts';
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
  return carriesCode(cause) ? { ...result, error: asTrpcError(cause) } : result;
});

function requireCsrf(header: boolean): void {
  if (!header) throw new ActError('auth.forbidden', 'this call needs the header x-acts-csrf: 1 (mutations signed in by cookie)');
}

/** Public mutations (login, setup, logout) always need the header: no login CSRF. */
const csrfAlways = t.middleware(({ ctx, type, next }) => {
  if (type === 'mutation') requireCsrf(ctx.csrfHeader);
  return next();
});

const base = t.procedure.use(mapErrors);

/** Anyone may call (login, setup); mutations need the CSRF header. */
export const publicProcedure = base.use(csrfAlways);

/** Callers with `permission`; `ctx.caller` is non-null inside. Cookie-signed mutations need the CSRF header. */
export function allowed(permission: Permission) {
  return base.use(({ ctx, type, next }) => {
    const caller = requirePermission(ctx.caller, permission);
    if (type === 'mutation' && caller.via === 'session') requireCsrf(ctx.csrfHeader);
    return next({ ctx: { ...ctx, caller } });
  });
}
