/**
 * The inbox's hand-over procedures (server/api/claims.ts): `claim`, `release`, `delegate` (to a
 * named operator), `propose` (a delegate's answer, for the delegator to confirm) and `reassign`
 * (admins: to anyone, or to no one) — none of them on a task decided by votes (`vote.votes_decide`:
 * several people answer it, no one holds it). Each is audited on the task (`task.claim` … with the holder
 * before and after, so the run page's task history shows it) and told live to the inbox rooms.
 */
import { z } from 'zod';
import type { Auth, Caller, UserInfo } from '../../auth/types.ts';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../audit.ts';
import { Claims, type InboxHold } from '../claims.ts';
import type { ApiServices } from '../context.ts';
import { taskAssignment } from '../inbox-access.ts';
import { refuseOnVotedTask } from '../votes.ts';
import { id, vars } from '../limits.ts';
import { allowed } from '../trpc.ts';

const task = { pid: id, tid: id };
const userName = z.string().min(1).max(64);

/** An enabled user by name (`user.not_found` otherwise). */
async function enabledUser(auth: Auth, name: string): Promise<UserInfo> {
  const user = await auth.users.named(name);
  if (user.disabled) throw new ActError('user.not_found', `no enabled user named '${name}'`);
  return user;
}

/** Runs one change of hands, audited on the task with the holder before and after, then tells the inbox rooms. */
async function handOver(services: ApiServices, caller: Caller, name: string, pid: string, tid: string, detail: Record<string, unknown>, change: (claims: Claims) => Promise<InboxHold>) {
  const claims = new Claims(services.engine);
  const before = await services.engine.inboxHolds.get(pid, tid);
  const hold = await audited(services, caller, { action: `task.${name}`, target: `${pid}/${tid}`, detail: { ...detail, from: before?.holder ?? null }, ids: { pid, tid } }, async () => {
    // a task decided by votes is answered by several people: no one holds it
    await refuseOnVotedTask(services.engine, pid, tid, 'claimed, delegated or reassigned');
    return change(claims);
  });
  services.inboxFeed?.held(pid, tid, await taskAssignment(services.engine, pid, tid), hold);
  return { pid, tid, hold };
}

export const claimProcedures = {
  /** Takes a free task into the caller's hands (one who may answer it). */
  claim: allowed('operate')
    .input(z.object(task))
    .mutation(({ ctx, input }) => handOver(ctx.services, ctx.caller, 'claim', input.pid, input.tid, {}, (c) => c.claim(ctx.caller, input.pid, input.tid))),

  /** The holder lets go: a delegate's task returns to its delegator, anyone else's is free again. */
  release: allowed('operate')
    .input(z.object(task))
    .mutation(({ ctx, input }) => handOver(ctx.services, ctx.caller, 'release', input.pid, input.tid, {}, (c) => c.release(ctx.caller, input.pid, input.tid))),

  /** The holder hands the task to a named operator. */
  delegate: allowed('operate')
    .input(z.object({ ...task, to: userName }))
    .mutation(async ({ ctx, input }) => {
      const to = await enabledUser(ctx.services.auth, input.to);
      return handOver(ctx.services, ctx.caller, 'delegate', input.pid, input.tid, { to: input.to }, (c) => c.delegate(ctx.caller, input.pid, input.tid, to));
    }),

  /** A delegate of a `delegation: confirm` act hands their answer back to the delegator. */
  propose: allowed('operate')
    .input(z.object({ ...task, answer: vars }))
    .mutation(({ ctx, input }) => handOver(ctx.services, ctx.caller, 'propose', input.pid, input.tid, { answer: input.answer }, (c) => c.propose(ctx.caller, input.pid, input.tid, input.answer))),

  /** Admins: gives the task to an operator (`to`), or to no one (`to: null`), whoever holds it. */
  reassign: allowed('override')
    .input(z.object({ ...task, to: userName.nullable() }))
    .mutation(async ({ ctx, input }) => {
      const to = input.to === null ? null : await enabledUser(ctx.services.auth, input.to);
      return handOver(ctx.services, ctx.caller, 'reassign', input.pid, input.tid, { to: input.to }, (c) => c.reassign(input.pid, input.tid, to));
    }),
};
