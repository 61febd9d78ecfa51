/**
 * Secrets, for admins: list (names and who changed them when, never a value), set (create or
 * replace) and delete. Every change is audited with the name only; the value is in no answer,
 * audit entry or log line. The rules of names and values are server/secrets'.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { secretValue } from '../limits.ts';
import { allowed, router } from '../trpc.ts';

/** Bounded here; server/secrets checks the name's form. */
const name = z.string().min(1).max(64);

const admin = allowed('admin');

export const secretsRouter = router({
  /** Every secret by name; `enabled` is false on a server without ACTS_SECRETS_KEY (nothing can be stored). */
  list: admin.input(z.object({}).default({})).query(async ({ ctx }) => {
    const rows = await ctx.services.secrets.list();
    return { enabled: ctx.services.secrets.enabled, count: rows.length, rows };
  }),

  /** Creates or replaces a secret; the answer says which (`created`) and never holds the value. */
  set: admin.input(z.object({ name, value: secretValue })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'secret.set', target: input.name, detail: { name: input.name } }, () =>
      ctx.services.secrets.set(input.name, input.value, ctx.caller.name),
    ),
  ),

  delete: admin.input(z.object({ name })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'secret.delete', target: input.name, detail: { name: input.name } }, async () => {
      await ctx.services.secrets.delete(input.name);
      return { deleted: true };
    }),
  ),
});
