/**
 * Sign-in plumbing over the `Auth` contract: login sets the httpOnly session cookie
 * (SameSite=Lax, Path=/, Secure when configured), logout revokes it, `me` says who calls, and the
 * one-time admin setup, and `changePassword` for the caller (a session caller gets a new cookie:
 * the change ends every session of the user). Passwords are never logged or audited. A login or
 * setup refused for its input (a NUL, an empty or over-long name) is audited too.
 */
import { z } from 'zod';
import { changePassword } from '../../auth/change-password.ts';
import { showNul } from '../../engine/nul-text.ts';
import { audited, type AuditTarget } from '../audit.ts';
import type { ApiContext } from '../context.ts';
import { allowed, publicAudited, publicProcedure, router } from '../trpc.ts';

const NAME_CHARS = 100;
const password = z.string().min(1).max(1024);
const credentials = z.object({ name: z.string().trim().min(1).max(NAME_CHARS), password });

/** The audit entry of a login or setup refused for its input: the name as sent (bounded, NULs shown as `\u0000`), never the password. */
function refusedCredentials(action: string) {
  return (raw: unknown, ctx: ApiContext): AuditTarget => {
    const name = (raw as { name?: unknown } | null)?.name;
    return { action, target: typeof name === 'string' ? showNul(name).slice(0, NAME_CHARS) : '?', detail: { ip: ctx.ip } };
  };
}

export const authRouter = router({
  login: publicAudited(credentials, refusedCredentials('auth.login')).mutation(({ ctx, input }) =>
    audited(ctx.services, null, { action: 'auth.login', target: input.name, detail: { ip: ctx.ip } }, async () => {
      const session = await ctx.services.auth.login(input.name, input.password, ctx.ip);
      ctx.setSessionCookie(session.token, session.expires);
      return { caller: session.caller, expires: session.expires };
    }),
  ),

  logout: publicProcedure.input(z.object({}).default({})).mutation(({ ctx }) =>
    audited(ctx.services, ctx.caller, { action: 'auth.logout', target: ctx.caller?.name ?? 'anonymous' }, async () => {
      if (ctx.sessionToken) await ctx.services.auth.logout(ctx.sessionToken);
      ctx.clearSessionCookie();
      return { ok: true };
    }),
  ),

  me: publicProcedure.input(z.object({}).default({})).query(({ ctx }) => ({ caller: ctx.caller })),

  setupNeeded: publicProcedure.input(z.object({}).default({})).query(async ({ ctx }) => ({ needed: await ctx.services.auth.setupNeeded() })),

  setup: publicAudited(credentials, refusedCredentials('auth.setup')).mutation(({ ctx, input }) =>
    audited(ctx.services, null, { action: 'auth.setup', target: input.name, detail: { ip: ctx.ip } }, () => ctx.services.auth.setup(input.name, input.password)),
  ),

  changePassword: allowed('self')
    .input(z.object({ oldPassword: password, newPassword: password }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'auth.change_password', target: ctx.caller.userId, detail: { ip: ctx.ip } }, async () => {
        const session = await changePassword(ctx.services.auth, ctx.caller, input.oldPassword, input.newPassword, ctx.ip);
        if (session) ctx.setSessionCookie(session.token, session.expires);
        return { ok: true };
      }),
    ),
});
