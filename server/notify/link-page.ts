/**
 * The pages of one-click links, server-rendered and self-contained (no script, no studio needed):
 * the confirmation (what the link answers, one button that POSTs), and the result — done, or
 * refused with its stable code (`data-code` on the page, and shown) and a sentence; `data-state`
 * says which (ready, done, refused). A client that asks for JSON (`Accept: application/json`) gets
 * `{ok, state, …}` or `{ok: false, code, message, result?}` instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { codeTraits } from '../../vocab/server-codes.ts';
import { sendJson } from '../http/probes.ts';
import type { LinkAnswer } from './link-use.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `state`: ready (the confirmation), done, or refused (then `code` says why). */
function page(res: ServerResponse, status: number, state: 'ready' | 'done' | 'refused', code: string | null, title: string, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
      `<title>${escape(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:1px solid #345;background:#2b5cab;color:#fff;cursor:pointer}button.negative{background:#b3261e;border-color:#7a1a14}code{background:#eee;padding:0 .3rem}</style></head>` +
      `<body><main data-state="${state}"${code ? ` data-code="${escape(code)}"` : ''}><h1>${escape(title)}</h1>${body}</main></body></html>`,
  );
}

const wantsJson = (req: IncomingMessage) => (req.headers.accept ?? '').includes('application/json');

const statusOf = (answer: LinkAnswer) => (answer.ok ? 200 : (codeTraits(answer.code)?.http ?? 500));

const taskLine = (answer: LinkAnswer) => (answer.link ? `<p>Task <code>${escape(answer.link.tid)}</code> of run <code>${escape(answer.link.pid)}</code>, as <strong>${escape(answer.link.user)}</strong>.</p>` : '');

function refusal(req: IncomingMessage, res: ServerResponse, answer: Extract<LinkAnswer, { ok: false }>): void {
  if (wantsJson(req)) return sendJson(res, statusOf(answer), { ok: false, code: answer.code, message: answer.message, ...(answer.result ? { result: answer.result } : {}) });
  page(res, statusOf(answer), 'refused', answer.code, 'Nothing changed', `<p>${escape(answer.message)}</p>${taskLine(answer)}<p>Code: <code>${escape(answer.code)}</code></p>`);
}

/** The GET: what the link would do, and the button that does it. */
export function confirmPage(req: IncomingMessage, res: ServerResponse, answer: LinkAnswer): void {
  if (!answer.ok) return refusal(req, res, answer);
  if (wantsJson(req)) return sendJson(res, 200, { ok: true, state: 'ready', answer: answer.answer.name, label: answer.answer.label, task: answer.task.name, pid: answer.link.pid, tid: answer.link.tid, user: answer.link.user });
  const button = `<form method="post"><button type="submit"${answer.answer.negative ? ' class="negative"' : ''}>${escape(answer.answer.label)}</button></form>`;
  page(res, 200, 'ready', null, `${answer.answer.label}: ${answer.task.name}`, `${taskLine(answer)}<p>Confirm to answer <strong>${escape(answer.answer.label)}</strong>. The link works once.</p>${button}`);
}

/** The POST's result. */
export function resultPage(req: IncomingMessage, res: ServerResponse, answer: LinkAnswer): void {
  if (!answer.ok) return refusal(req, res, answer);
  if (wantsJson(req)) return sendJson(res, 200, { ok: true, state: 'done', answer: answer.answer.name, pid: answer.link.pid, tid: answer.link.tid, user: answer.link.user });
  page(res, 200, 'done', null, 'Answer recorded', `<p>You answered <strong>${escape(answer.answer.label)}</strong> to ${escape(answer.task.name)}.</p>${taskLine(answer)}`);
}
