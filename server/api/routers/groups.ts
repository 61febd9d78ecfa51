/**
 * Groups: teams an interrupt act may be offered to (`params.candidate_groups`). Everyone who reads
 * may list them (the designer offers their names); the members are shown to admins only. Admins
 * create, describe and remove groups, and add or remove members (also `users.setGroups`). Every
 * change is audited. The rules of names and the store are server/auth's (groups.ts).
 */
import { z } from 'zod';
import type { Auth, UserInfo } from '../../auth/types.ts';
import { GROUP_DESCRIPTION_MAX } from '../../../vocab/groups.ts';
import { audited } from '../audit.ts';
import { allows } from '../policy.ts';
import { allowed, router } from '../trpc.ts';

const name = z.string().min(1).max(64);
const description = z.string().max(GROUP_DESCRIPTION_MAX);
const admin = allowed('admin');

/** Adds (or takes away) one group of a user, keeping their others. */
async function changeMembership(auth: Auth, group: string, userName: string, member: boolean): Promise<UserInfo> {
  const user = await auth.users.named(userName);
  const groups = member ? [...user.groups, group] : user.groups.filter((g) => g !== group);
  return auth.users.setGroups(user.id, groups);
}

export const groupsRouter = router({
  list: allowed('read')
    .input(z.object({}).default({}))
    .query(async ({ ctx }) => {
      const rows = await ctx.services.auth.groups.list();
      const shown = allows(ctx.caller, 'admin') ? rows : rows.map((g) => ({ ...g, members: [] }));
      return { count: shown.length, rows: shown };
    }),

  create: admin.input(z.object({ name, description: description.default('') })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'group.create', target: input.name, detail: { description: input.description } }, () =>
      ctx.services.auth.groups.create(input.name, input.description),
    ),
  ),

  describe: admin.input(z.object({ name, description })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'group.describe', target: input.name, detail: { description: input.description } }, () =>
      ctx.services.auth.groups.describe(input.name, input.description),
    ),
  ),

  /** Takes the group off every member; tasks offered to it stay open to the others they name (and to admins). */
  remove: admin.input(z.object({ name })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'group.remove', target: input.name }, async () => {
      await ctx.services.auth.groups.remove(input.name);
      return { ok: true };
    }),
  ),

  addMember: admin.input(z.object({ name, user: z.string().min(1).max(64) })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'group.add_member', target: input.name, detail: { user: input.user } }, () =>
      changeMembership(ctx.services.auth, input.name, input.user, true),
    ),
  ),

  removeMember: admin.input(z.object({ name, user: z.string().min(1).max(64) })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'group.remove_member', target: input.name, detail: { user: input.user } }, () =>
      changeMembership(ctx.services.auth, input.name, input.user, false),
    ),
  ),
});
