/**
 * Who works on an inbox task (issue: the operator inbox for real teams): an operator who may
 * answer it claims it — the others then see who holds it — and releases it; its holder delegates
 * it to a named operator; an admin reassigns it to anyone, or to no one. The hold lives on the
 * task's inbox rows (runtime/inbox-holds.ts: compared and set, so two claims never both win) and
 * goes with them when the task is answered. An interrupt act may open in a user's hands
 * (`params.assignee`).
 *
 * A delegated task returns to its delegator when the delegate releases it, or — when the act says
 * `delegation: confirm` — with the delegate's answer as a proposal (`propose`), which only the
 * delegator sends (or changes). Without it the delegate answers like any holder.
 *
 * State machine of a task's hold: free → held (claim, assignee, reassign) → delegated (delegate) →
 * held by the delegator again (release by the delegate, propose) → free (release, reassign to
 * no one); answered: gone with the rows.
 */
import type { Caller, UserInfo } from '../auth/types.ts';
import { ActError } from '../engine/errors.ts';
import type { Engine } from '../runtime/engine.ts';
import type { InboxHold } from '../runtime/read-model-types.ts';
import { grants } from '../../vocab/roles.ts';
import { allows } from './policy.ts';
import { mayAct, requireMayAct, taskAssignment } from './inbox-access.ts';
import { refuseOnVotedTask } from './votes.ts';

/** A user a task is given to: who they are and whether they may answer tasks. */
export type Recipient = Pick<UserInfo, 'name' | 'roles'>;

export type { InboxHold };

/** How an act's delegations end (`params.delegation`): the delegate answers, or the delegator confirms. */
export type DelegationMode = 'answer' | 'confirm';

export function delegationMode(params: unknown): DelegationMode {
  return typeof params === 'object' && params !== null && (params as { delegation?: unknown }).delegation === 'confirm' ? 'confirm' : 'answer';
}

const FREE: InboxHold = { holder: null, held_since: null, delegator: null, proposal: null };

const taskName = (pid: string, tid: string) => `task '${tid}' of process '${pid}'`;

function notOpen(pid: string, tid: string): ActError {
  return new ActError('inbox.not_open', `${taskName(pid, tid)} is not waiting for an answer any more (answered, or closed)`, { pid, tid });
}

function heldBy(pid: string, tid: string, hold: InboxHold): ActError {
  return new ActError('inbox.held', `${taskName(pid, tid)} is held by '${hold.holder}': ask them to release it, or an admin to reassign it`, { pid, tid, holder: hold.holder, delegator: hold.delegator });
}

export class Claims {
  constructor(
    private readonly engine: Engine,
    private readonly now: () => number = Date.now,
  ) {}

  /** The hold of an open inbox task (`inbox.not_open` when it is not one). */
  async hold(pid: string, tid: string): Promise<InboxHold> {
    const hold = await this.engine.inboxHolds.get(pid, tid);
    if (!hold) throw notOpen(pid, tid);
    return hold;
  }

  /** Takes a free task into the caller's hands (they must be one who may answer it); claiming one's own is a no-op. */
  async claim(caller: Caller, pid: string, tid: string): Promise<InboxHold> {
    const hold = await this.hold(pid, tid);
    if (hold.holder === caller.name) return hold;
    if (hold.holder !== null) throw heldBy(pid, tid, hold);
    await this.requireCandidate(caller, pid, tid);
    return this.set(pid, tid, null, { ...FREE, holder: caller.name, held_since: this.now() });
  }

  /** Lets go of a held task: a delegate's goes back to the delegator, anyone else's is free again. */
  async release(caller: Caller, pid: string, tid: string): Promise<InboxHold> {
    const hold = await this.hold(pid, tid);
    this.requireHolder(caller, pid, tid, hold);
    const next = hold.delegator ? { ...FREE, holder: hold.delegator, held_since: this.now() } : FREE;
    return this.set(pid, tid, hold.holder, next);
  }

  /** The holder hands the task to `to` (an operator who exists); it comes back to them as `delegationMode` says. */
  async delegate(caller: Caller, pid: string, tid: string, to: Recipient): Promise<InboxHold> {
    const hold = await this.hold(pid, tid);
    this.requireHolder(caller, pid, tid, hold);
    if (to.name === caller.name) throw new ActError('input.invalid', `${taskName(pid, tid)} is already in your hands: delegate it to someone else`);
    if (!grants(to.roles, 'operate')) throw new ActError('inbox.not_operator', `'${to.name}' may not answer tasks (no operator role): delegate to an operator`, { user: to.name });
    // a delegation of a delegated task keeps the first delegator, to whom it returns
    return this.set(pid, tid, hold.holder, { holder: to.name, held_since: this.now(), delegator: hold.delegator ?? caller.name, proposal: null });
  }

  /** An admin gives the task to `to` (any operator), or frees it (null), whoever holds it now. */
  async reassign(pid: string, tid: string, to: Recipient | null): Promise<InboxHold> {
    const hold = await this.hold(pid, tid);
    if (to && !grants(to.roles, 'operate')) throw new ActError('inbox.not_operator', `'${to.name}' may not answer tasks (no operator role): reassign to an operator`, { user: to.name });
    return this.set(pid, tid, hold.holder, to ? { ...FREE, holder: to.name, held_since: this.now() } : FREE);
  }

  /** A delegate of a `delegation: confirm` act hands back their answer; the task returns to the delegator with it. */
  async propose(caller: Caller, pid: string, tid: string, answer: Record<string, unknown>): Promise<InboxHold> {
    const hold = await this.hold(pid, tid);
    if (hold.holder !== caller.name || !hold.delegator) {
      throw new ActError('inbox.not_delegate', `${taskName(pid, tid)} was not delegated to '${caller.name}': only its delegate proposes an answer`, { pid, tid, holder: hold.holder });
    }
    return this.set(pid, tid, hold.holder, { holder: hold.delegator, held_since: this.now(), delegator: null, proposal: { ...answer, proposed_by: caller.name } });
  }

  /**
   * The check of every task action: a held task is answered by its holder alone (even one the act
   * does not name: it was given to them) — unless the act's delegations are confirmed and the
   * holder is the delegate —, a free one by those the act names (inbox-access.ts); admins pass.
   * A task decided by votes takes votes from them, no other action (votes.ts).
   */
  async requireMayAnswer(caller: Caller, pid: string, tid: string): Promise<void> {
    if (allows(caller, 'override')) return;
    await refuseOnVotedTask(this.engine, pid, tid, 'answered by one person');
    // the check of every task action does not wait for the store's queued writes (a claim does)
    const hold = (await this.engine.inboxHolds.peek(pid, tid)) ?? (await this.assigneeHold(pid, tid));
    if (hold.holder === null) return requireMayAct(this.engine, caller, pid, tid);
    if (hold.holder !== caller.name) throw heldBy(pid, tid, hold);
    if (hold.delegator && delegationMode((await this.engine.tasks.get(pid, tid)).params) === 'confirm') {
      throw new ActError('inbox.confirm_required', `'${hold.delegator}' confirms the answer to ${taskName(pid, tid)}: propose yours (inbox.propose) and it returns to them`, { pid, tid, delegator: hold.delegator });
    }
  }

  /** A task whose inbox rows are not written yet: in its assignee's hands, if the act names one. */
  private async assigneeHold(pid: string, tid: string): Promise<InboxHold> {
    const { assignee } = await taskAssignment(this.engine, pid, tid);
    return { ...FREE, holder: assignee };
  }

  private async requireCandidate(caller: Caller, pid: string, tid: string): Promise<void> {
    const a = await taskAssignment(this.engine, pid, tid);
    if (!mayAct(caller, a)) throw new ActError('auth.forbidden', `'${caller.name}' may not answer ${taskName(pid, tid)}, so may not claim it`, { pid, tid, ...a });
  }

  private requireHolder(caller: Caller, pid: string, tid: string, hold: InboxHold): void {
    if (hold.holder === caller.name) return;
    if (hold.holder === null) throw new ActError('inbox.not_holder', `no one holds ${taskName(pid, tid)}: claim it first`, { pid, tid });
    throw heldBy(pid, tid, hold);
  }

  /** Compares and sets; another change in between (or the answer) makes it `inbox.stale`/`inbox.not_open`. */
  private async set(pid: string, tid: string, expected: string | null, hold: InboxHold): Promise<InboxHold> {
    if (await this.engine.inboxHolds.set(pid, tid, expected, hold)) return hold;
    const now = await this.engine.inboxHolds.get(pid, tid);
    if (!now) throw notOpen(pid, tid);
    throw new ActError('inbox.stale', `${taskName(pid, tid)} changed hands meanwhile (now held by ${now.holder ? `'${now.holder}'` : 'no one'}): look again and retry`, { pid, tid, holder: now.holder });
  }
}
