/**
 * The text of a notification e-mail (sender.ts asks for it when it sends, so the links' expiry
 * counts from then): which task, of which run, due when or escalated why, and — with a link key — one signed link
 * per answer the act offers (link-actions.ts), bound to the task, the recipient and the answer.
 * Null when the task is no longer open (answered or closed meanwhile): nothing is sent.
 */
import type { Engine } from '../runtime/engine.ts';
import type { TaskInfo } from '../runtime/info.ts';
import type { NotificationRow } from '../store/server-rows.ts';
import type { MailConfig } from './config.ts';
import { linkActions } from './link-actions.ts';
import { MAIL_LINKS_BASE, newLink, signLink } from './links.ts';
import type { Mail } from './sender.ts';
import { escalationText, lastEscalation } from '../../vocab/escalations.ts';

export type NotificationKind = 'arrived' | 'due' | 'escalated';

/** What the mail and the link pages call a task: its act's `params.title`, else its key, else its node id. */
export function taskTitle(task: Pick<TaskInfo, 'params' | 'key' | 'nid'>): string {
  const title = (task.params as { title?: unknown } | null)?.title;
  return typeof title === 'string' && title.trim() ? title.trim().slice(0, 200) : task.key || task.nid;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function mailComposer(engine: Engine, config: MailConfig, now: () => number = Date.now) {
  return async (row: NotificationRow): Promise<Mail | null> => {
    const task = await engine.tasks.get(row.pid, row.tid).catch(() => null);
    if (!task || task.state !== 'interrupted') return null;
    const run = await engine.procs.get(row.pid).catch(() => null);
    const what = `${taskTitle(task)} - ${run?.name ?? row.pid}`;
    const escalation = row.kind === 'escalated' ? lastEscalation(task.params) : null;
    const subject = row.kind === 'due' ? `[acts] Due: ${what}` : escalation ? `[acts] Escalated to you: ${what}` : `[acts] New task: ${what}`;
    const lead = row.kind === 'due' ? 'This task is due and still waits for an answer:' : escalation ? `${escalationText(escalation)}. It waits for your answer:` : 'A task waits for your answer:';
    const inbox = `${config.publicUrl}/inbox`;
    const exp = now() + config.linkTtlMs;
    const links = config.linkKey
      ? linkActions(task.params).map((a) => ({ ...a, url: `${config.publicUrl}${MAIL_LINKS_BASE}${signLink(config.linkKey!, newLink({ pid: row.pid, tid: row.tid, user: row.user_name, action: a.name, exp }))}` }))
      : [];
    const until = new Date(exp).toISOString();
    const text = [
      `Hello ${row.user_name},`,
      '',
      lead,
      `  ${what}`,
      `  run ${row.pid}, task ${row.tid}`,
      '',
      ...links.map((l) => `${l.label}: ${l.url}`),
      ...(links.length ? [`(each link works once, as ${row.user_name}, until ${until}; it asks you to confirm first)`, ''] : []),
      `Open the inbox: ${inbox}`,
    ].join('\n');
    const buttons = links.map((l) => `<a href="${escape(l.url)}" style="margin-right:12px">${escape(l.label)}</a>`).join('');
    const html =
      `<p>Hello ${escape(row.user_name)},</p><p>${escape(lead)}<br><strong>${escape(what)}</strong><br>run ${escape(row.pid)}, task ${escape(row.tid)}</p>` +
      (links.length ? `<p>${buttons}</p><p style="color:#666">Each link works once, as ${escape(row.user_name)}, until ${until}; it asks you to confirm first.</p>` : '') +
      `<p><a href="${escape(inbox)}">Open the inbox</a></p>`;
    return { to: row.email, subject, text, html };
  };
}
