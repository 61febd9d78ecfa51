/**
 * What a one-click link does. `inspectLink` (the GET: mail scanners prefetch links, so it changes
 * nothing) says whether the link would work and what it answers: the signature and the expiry
 * (links.ts) → not used yet → the task still waits for an answer (`link.answered`) and offers the
 * link's answer → its user exists, is enabled and may answer it now, by the inbox's own check
 * (claims.ts `requireMayAnswer`: offered to them, not held by another). `useLink` (the POST) makes
 * the same checks, then records the use under the link's id (mail_link_uses: a second create is
 * refused, so of two concurrent uses one goes on, and every later use is `link.used`), checks the
 * task again (it may have changed meanwhile) and sends the engine the action the inbox would.
 * Every use is audited (the user, the task, the link id, the answer, the result) and its result
 * stays on the use row. A refusal before the record consumes nothing (the link works once the
 * task is free for its user again); one after it (a change in between) consumes the link.
 */
import type { ApiServices } from '../api/context.ts';
import { recordAudit } from '../api/audit.ts';
import { Claims } from '../api/claims.ts';
import { toActError } from '../api/errors.ts';
import type { Caller } from '../auth/types.ts';
import type { MailLinkUseRow, ServerStore } from '../store/server-rows.ts';
import { taskTitle } from './compose.ts';
import { engineAction, linkActions, type LinkAction } from './link-actions.ts';
import { verifyLink, type MailLink } from './links.ts';

export type LinkCode = 'link.off' | 'link.bad_signature' | 'link.expired' | 'link.used' | 'link.answered' | 'link.not_allowed';

export type LinkAnswer =
  | { ok: true; link: MailLink; answer: LinkAction; task: { name: string } }
  | { ok: false; code: LinkCode | string; message: string; link?: MailLink; result?: string };

export interface LinkDeps {
  services: Pick<ApiServices, 'engine' | 'auth' | 'audit' | 'log'>;
  store: Pick<ServerStore, 'mailLinkUses'>;
  /** The link key (null: this server sends no links). */
  key: Buffer | null;
  now?: () => number;
}

type Refusal = Extract<LinkAnswer, { ok: false }> & { code: LinkCode };
const refused = (r: Omit<Refusal, 'ok'>): LinkAnswer => ({ ok: false, ...r });

const USED = (first: MailLinkUseRow) =>
  refused({
    code: 'link.used',
    message:
      first.result === 'ok'
        ? 'This link was used already: the answer it gave stands. Each link works once.'
        : first.result === 'pending'
          ? 'This link is being used right now (another click): each link works once.'
          : `This link was used already (that use was refused: ${first.result}). Each link works once: answer in the studio.`,
    result: first.result,
  });

const ANSWERED = 'This task was already answered (or closed): nothing changed.';

async function callerOf(deps: LinkDeps, link: MailLink): Promise<Caller | null> {
  const user = await deps.services.auth.users.named(link.user).catch(() => null);
  return user && !user.disabled ? { userId: user.id, name: user.name, roles: user.roles, groups: user.groups, via: 'mail_link' } : null;
}

/** Why the link's user may not answer its task now (null: they may): disabled or gone, not offered it, held by another. */
async function notAllowed(deps: LinkDeps, caller: Caller | null, link: MailLink): Promise<LinkAnswer | null> {
  if (!caller) return refused({ code: 'link.not_allowed', message: `The user '${link.user}' does not exist or is disabled: nothing changed.`, link });
  try {
    await new Claims(deps.services.engine).requireMayAnswer(caller, link.pid, link.tid);
    return null;
  } catch (err) {
    const e = toActError(err);
    return refused({ code: 'link.not_allowed', message: `${caller.name} may not answer this task now: ${e.message}. Nothing changed.`, link, result: e.code });
  }
}

/** The link's checks that change nothing: signature, expiry, not used, the task open and offering the answer, the user allowed to give it. */
export async function inspectLink(deps: LinkDeps, token: string): Promise<LinkAnswer> {
  if (!deps.key) return refused({ code: 'link.off', message: 'This server sends no one-click links: answer in the studio.' });
  const verdict = verifyLink(deps.key, token, (deps.now ?? Date.now)());
  if (!verdict.ok) {
    return verdict.code === 'link.expired'
      ? refused({ code: 'link.expired', message: 'This link has expired: answer in the studio.', link: verdict.link })
      : refused({ code: 'link.bad_signature', message: 'This link is not valid (altered or cut short): open the task in the studio.' });
  }
  const { link } = verdict;
  const used = await deps.store.mailLinkUses.find(link.id);
  if (used) return { ...USED(used), link };
  const task = await deps.services.engine.tasks.get(link.pid, link.tid).catch(() => null);
  if (!task || task.state !== 'interrupted') return refused({ code: 'link.answered', message: ANSWERED, link });
  const answer = linkActions(task.params).find((a) => a.name === link.action);
  if (!answer) return refused({ code: 'link.not_allowed', message: `The task no longer offers the answer '${link.action}': answer in the studio.`, link });
  return (await notAllowed(deps, await callerOf(deps, link), link)) ?? { ok: true, link, answer, task: { name: taskTitle(task) } };
}

/** Records the use under the link's id; the first use's row when there was one. */
async function consume(deps: LinkDeps, link: MailLink): Promise<MailLinkUseRow | null> {
  const row: MailLinkUseRow = { id: link.id, pid: link.pid, tid: link.tid, user_name: link.user, action: link.action, use_time: (deps.now ?? Date.now)(), result: 'pending' };
  try {
    await deps.store.mailLinkUses.create(row);
    return null;
  } catch (err) {
    const first = await deps.store.mailLinkUses.find(link.id);
    if (first) return first;
    throw err;
  }
}

async function apply(deps: LinkDeps, caller: Caller, link: MailLink): Promise<LinkAnswer> {
  const { engine } = deps.services;
  const task = await engine.tasks.get(link.pid, link.tid).catch(() => null);
  if (!task || task.state !== 'interrupted') return refused({ code: 'link.answered', message: ANSWERED, link });
  const action = engineAction(task.params, link.action);
  if (!action) return refused({ code: 'link.not_allowed', message: `The task no longer offers the answer '${link.action}': answer in the studio.`, link });
  const refusal = await notAllowed(deps, caller, link);
  if (refusal) return refusal;
  try {
    await engine.do({ pid: link.pid, tid: link.tid, action: action.action, options: action.options });
  } catch (err) {
    const now = await engine.tasks.get(link.pid, link.tid).catch(() => null);
    if (!now || now.state !== 'interrupted') return refused({ code: 'link.answered', message: ANSWERED, link });
    throw err;
  }
  const answer = linkActions(task.params).find((a) => a.name === link.action)!;
  return { ok: true, link, answer, task: { name: taskTitle(task) } };
}

/** Applies the link once (see the header); audited. */
export async function useLink(deps: LinkDeps, token: string): Promise<LinkAnswer> {
  const checked = await inspectLink(deps, token);
  if (!checked.ok) return audit(deps, checked.link ? await callerOf(deps, checked.link) : null, checked);
  const link = checked.link;
  const caller = (await callerOf(deps, link))!;
  const first = await consume(deps, link);
  if (first) return audit(deps, caller, { ...USED(first), link });
  let outcome: LinkAnswer;
  try {
    outcome = await apply(deps, caller, link);
  } catch (err) {
    const e = toActError(err);
    outcome = { ok: false, code: e.code, message: `The answer could not be given: ${e.message}`, link };
  }
  const result = outcome.ok ? 'ok' : outcome.code;
  await deps.store.mailLinkUses.update({ id: link.id, pid: link.pid, tid: link.tid, user_name: link.user, action: link.action, use_time: (deps.now ?? Date.now)(), result });
  return audit(deps, caller, outcome);
}

async function audit(deps: LinkDeps, caller: Caller | null, outcome: LinkAnswer): Promise<LinkAnswer> {
  const link = outcome.link;
  const target = link ? `${link.pid}/${link.tid}` : 'mail_link';
  const detail = link ? { link: link.id, user: link.user, answer: link.action, ...(outcome.ok ? {} : { reason: outcome.result ?? null }) } : {};
  await recordAudit(deps.services as ApiServices, caller, { action: 'task.mail_link', target, detail, ids: link ? { pid: link.pid, tid: link.tid } : undefined }, outcome.ok ? 'ok' : outcome.code);
  return outcome;
}
