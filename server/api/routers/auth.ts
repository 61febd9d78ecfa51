/**
 * Sign-in plumbing over the `Auth` contract: login sets the httpOnly session cookie
 * (SameSite=Lax, Path=/, Secure when configured), logout revokes it, `me` says who calls, and the
 * one-time admin setup. Passwords are never logged or audited.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { publicProcedure, router } from '../trpc.ts';

const credentials = z.object({ name: z.string().trim().min(1).max(100), password: z.string().min(1).max(1024) });

export const authRouter = router({
  login: publicProcedure.input(credentials).mutation(({ ctx, input }) =>
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

  setup: publicProcedure.input(credentials).mutation(({ ctx, input }) =>
    audited(ctx.services, null, { action: 'auth.setup', target: input.name, detail: { ip: ctx.ip } }, () => ctx.services.auth.setup(input.name, input.password)),
  ),
});
