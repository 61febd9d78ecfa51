/**
 * Users, for admins: list, get, create, set roles, set groups, set the e-mail address, set a password, disable and enable. Every
 * change is audited (a role change with the roles before and after); passwords never reach the
 * audit log, the log or a response, and no response carries a password hash. The rules of names,
 * passwords and roles (and the last-admin protection) are server/auth's.
 */
import { z } from 'zod';
import type { Auth, UserInfo } from '../../auth/types.ts';
import { ROLES } from '../../../vocab/roles.ts';
import { audited } from '../audit.ts';
import { id } from '../limits.ts';
import { allowed, router } from '../trpc.ts';

const userName = z.string().min(1).max(64);
/** Bounded here; server/auth checks the rest (at least 8 characters, at most 1024 bytes). */
const password = z.string().max(1024);
const roles = z.array(z.enum(ROLES)).min(1).max(ROLES.length);
/** Bounded here; server/auth checks each name (vocab/groups.ts) and that each group exists. */
const groups = z.array(z.string().max(64)).max(100);

/** The user before a change, for the audit detail; undefined when unknown (the change then fails with `user.not_found`). */
function before(auth: Auth, userId: string): Promise<UserInfo | undefined> {
  return auth.users.get(userId).catch(() => undefined);
}

const admin = allowed('admin');

export const usersRouter = router({
  list: admin.input(z.object({}).default({})).query(async ({ ctx }) => {
    const rows = await ctx.services.auth.users.list();
    return { count: rows.length, rows };
  }),

  get: admin.input(z.object({ id })).query(({ ctx, input }) => ctx.services.auth.users.get(input.id)),

  create: admin.input(z.object({ name: userName, password, roles })).mutation(({ ctx, input }) =>
    audited(ctx.services, ctx.caller, { action: 'user.create', target: input.name, detail: { roles: input.roles } }, () =>
      ctx.services.auth.users.create(input.name, input.password, input.roles),
    ),
  ),

  setRoles: admin.input(z.object({ id, roles })).mutation(async ({ ctx, input }) => {
    const user = await before(ctx.services.auth, input.id);
    return audited(ctx.services, ctx.caller, { action: 'user.roles', target: input.id, detail: { name: user?.name, from: user?.roles, to: input.roles } }, () =>
      ctx.services.auth.users.setRoles(input.id, input.roles),
    );
  }),

  /** The groups the user belongs to (teams interrupt acts are offered to: `params.candidate_groups`). */
  setGroups: admin.input(z.object({ id, groups })).mutation(async ({ ctx, input }) => {
    const user = await before(ctx.services.auth, input.id);
    return audited(ctx.services, ctx.caller, { action: 'user.groups', target: input.id, detail: { name: user?.name, from: user?.groups, to: input.groups } }, () =>
      ctx.services.auth.users.setGroups(input.id, input.groups),
    );
  }),

  /** The address inbox notifications go to (server/notify); null removes it. */
  setEmail: admin.input(z.object({ id, email: z.string().max(254).nullable() })).mutation(async ({ ctx, input }) => {
    const user = await before(ctx.services.auth, input.id);
    return audited(ctx.services, ctx.caller, { action: 'user.email', target: input.id, detail: { name: user?.name, from: user?.email ?? null, to: input.email } }, () =>
      ctx.services.auth.users.setEmail(input.id, input.email),
    );
  }),

  /** Ends the user's sessions (their API tokens stay). */
  setPassword: admin.input(z.object({ id, password })).mutation(async ({ ctx, input }) => {
    const user = await before(ctx.services.auth, input.id);
    return audited(ctx.services, ctx.caller, { action: 'user.password', target: input.id, detail: { name: user?.name } }, async () => {
      await ctx.services.auth.users.setPassword(input.id, input.password);
      return { ok: true };
    });
  }),

  /** Disabling ends the user's sessions; their API tokens stop working until enabled again. */
  setDisabled: admin.input(z.object({ id, disabled: z.boolean() })).mutation(async ({ ctx, input }) => {
    const user = await before(ctx.services.auth, input.id);
    return audited(ctx.services, ctx.caller, { action: input.disabled ? 'user.disable' : 'user.enable', target: input.id, detail: { name: user?.name } }, () =>
      ctx.services.auth.users.setDisabled(input.id, input.disabled),
    );
  }),
});
