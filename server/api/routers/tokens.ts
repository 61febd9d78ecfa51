/**
 * API tokens: every signed-in user lists, creates and revokes their own; admins also list and
 * revoke anyone's. The secret is in the answer of `create` only (the store keeps its hash);
 * lists show names and times. Creating and revoking are audited.
 */
import { z } from 'zod';
import type { Auth, Caller } from '../../auth/types.ts';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../audit.ts';
import { id } from '../limits.ts';
import { allows, requirePermission } from '../policy.ts';
import { allowed, router } from '../trpc.ts';

/** The id of the user owning token `tokenId`: the caller's own, or (admins only) anyone's. */
async function ownerOf(auth: Auth, caller: Caller, tokenId: string): Promise<string> {
  if ((await auth.tokens.list(caller.userId)).some((t) => t.id === tokenId)) return caller.userId;
  // The same answer whether the token exists or not: a non-admin learns nothing about others' tokens.
  if (!allows(caller, 'admin')) throw new ActError('auth.forbidden', `'${tokenId}' is not one of your API tokens`);
  const users = await auth.users.list();
  const lists = await Promise.all(users.map(async (user) => ({ user, tokens: await auth.tokens.list(user.id) })));
  const owner = lists.find(({ tokens }) => tokens.some((t) => t.id === tokenId));
  if (!owner) throw new ActError('input.invalid', `there is no API token '${tokenId}'`);
  return owner.user.id;
}

const self = allowed('self');

export const tokensRouter = router({
  /** The caller's tokens, or (admins) those of `userId`; oldest first. */
  list: self.input(z.object({ userId: id.optional() }).default({})).query(async ({ ctx, input }) => {
    const userId = input.userId ?? ctx.caller.userId;
    if (userId !== ctx.caller.userId) requirePermission(ctx.caller, 'admin');
    const rows = await ctx.services.auth.tokens.list(userId);
    return { count: rows.length, rows };
  }),

  /** A new token of the caller; `token` is its secret, shown this once. */
  create: self.input(z.object({ name: z.string().min(1).max(100) })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'token.create', target: ctx.caller.userId, detail: { name: input.name } }, () =>
      ctx.services.auth.tokens.create(ctx.caller.userId, input.name),
    ),
  ),

  revoke: self.input(z.object({ id })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'token.revoke', target: input.id }, async () => {
      const owner = await ownerOf(ctx.services.auth, ctx.caller, input.id);
      await ctx.services.auth.tokens.revoke(input.id);
      return { revoked: true, user_id: owner };
    }),
  ),
});
