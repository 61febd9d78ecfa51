/**
 * POST /hooks/<model>/<trigger>: a signed delivery starts the model of an `acts.event.hook`
 * trigger. The body (at most the trigger's `max_bytes`) is checked against the stored secret the
 * trigger names (signatures.ts); the process starts with inputs `body` (parsed JSON, else text),
 * `event` (the sender's event name, if it says one) and `delivery` (its id), once per delivery:
 * a repeat answers the first process (`repeated: true`) and starts nothing. The answer is
 * `202 {pid, repeated}` at once, or with `?wait=<secs>` (at most 60) `200 {pid, state, outputs}`
 * once the process ended (still `202 {pid, state: "running"}` when it had not). Every delivery,
 * taken or refused, is an audit entry (`hook.delivery`, target the trigger id, actor `webhook`),
 * which the studio lists per trigger. Refusals answer `{error: {code, message}}`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ActError, errorMessage } from '../../engine/errors.ts';
import type { SecretReader } from '../../engine/secrets.ts';
import type { Engine } from '../../runtime/engine.ts';
import type { AuditLog } from '../../audit/types.ts';
import { codeTraits } from '../../../vocab/server-codes.ts';
import { WEBHOOK_DEFAULTS } from '../../../vocab/webhooks.ts';
import { sendJson } from '../probes.ts';
import { readBody } from '../read-body.ts';
import { hookConfig } from './hook-config.ts';
import { verifyDelivery } from './signatures.ts';

export const HOOKS_BASE = '/hooks/';

export interface WebhookDeps {
  engine: Engine;
  secrets: SecretReader;
  audit: AuditLog;
  now?: () => number;
}

/** A delivery refused: its code (vocab/server-codes.ts HTTP_CODES, or an engine or API code) and a sentence. */
class Refusal extends Error {
  readonly code: string;
  constructor(refusal: { code: string; message: string }) {
    super(refusal.message);
    this.code = refusal.code;
  }
}

function parsedBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (!/json/i.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal({ code: 'input.invalid', message: 'the body is not valid JSON, though its content-type says it is' });
  }
}

/** `?wait=30` or `30s`: seconds to wait for the outputs (at most the cap); none: undefined. */
function waitSecs(url: URL): number | undefined {
  const raw = url.searchParams.get('wait');
  if (raw === null) return undefined;
  const secs = Number(raw.replace(/s$/, ''));
  if (!Number.isFinite(secs) || secs < 0) throw new Refusal({ code: 'input.invalid', message: `wait=${raw.slice(0, 20)} is not a number of seconds, e.g. wait=30s` });
  return Math.min(secs, WEBHOOK_DEFAULTS.maxWaitSecs);
}

async function deliver(deps: WebhookDeps, req: IncomingMessage, url: URL, id: string): Promise<{ status: number; body: unknown; detail: Record<string, unknown> }> {
  if (req.method !== 'POST') throw new Refusal({ code: 'hook.method', message: `deliveries are POSTed to ${url.pathname}` });
  const row = await deps.engine.triggers.get(id).catch(() => undefined);
  if (!row || row.kind !== 'hook') throw new Refusal({ code: 'trigger.not_found', message: `no hook trigger '${id}': the path is /hooks/<model id>/<trigger id> of an acts.event.hook trigger` });
  if (!row.enabled) throw new Refusal({ code: 'trigger.disabled', message: `trigger '${id}' is disabled: enable it to take deliveries` });
  const config = hookConfig(row.params);
  const wait = waitSecs(url);
  const body = await readBody(req, config.maxBytes, () => new Refusal({ code: 'hook.too_large', message: `the body is larger than ${config.maxBytes} bytes (the trigger's max_bytes)` }));
  if (!config.secret) throw new Refusal({ code: 'hook.unsigned', message: `trigger '${id}' names no secret: add params.secret (a stored secret's name) so deliveries can be checked` });
  const secret = deps.secrets.get(config.secret);
  if (!secret) throw new Refusal({ code: 'secret.unknown', message: `the secret '${config.secret}' that trigger '${id}' names is not stored: an admin adds it in Admin › Secrets` });
  const verdict = verifyDelivery({ preset: config.signature, secret, body, headers: req.headers, header: config.header, now: (deps.now ?? Date.now)(), toleranceSecs: config.toleranceSecs });
  if (!verdict.ok) throw new Refusal(verdict);
  const inputs = { body: parsedBody(body, req.headers['content-type']), event: verdict.event, delivery: verdict.delivery };
  const started = await deps.engine.procs.start(row.mid, inputs, { idempotencyKey: `hook:${id}:${verdict.delivery}`.slice(0, 200) });
  const detail = { delivery: verdict.delivery, event: verdict.event, pid: started.pid, repeated: started.repeated };
  if (wait === undefined) return { status: 202, body: { pid: started.pid, repeated: started.repeated }, detail };
  const ended = await Promise.race([deps.engine.procs.wait(started.pid), sleep(wait * 1000, null, { ref: false })]);
  if (!ended) return { status: 202, body: { pid: started.pid, repeated: started.repeated, state: 'running' }, detail };
  return { status: 200, body: { pid: started.pid, repeated: started.repeated, state: ended.state, outputs: ended.outputs }, detail };
}

export function webhookEndpoint(deps: WebhookDeps): RequestListener {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://hooks');
    const [mid, trigger, ...rest] = url.pathname.slice(HOOKS_BASE.length).split('/').map((part) => decodeURIComponent(part));
    const id = `${mid ?? ''}:${trigger ?? ''}`;
    const record = (result: string, detail: Record<string, unknown>) =>
      deps.audit.record({ actor: 'webhook', actor_name: 'webhook', action: 'hook.delivery', target: id.slice(0, 200), detail, result }).catch(() => undefined);
    try {
      if (!mid || !trigger || rest.length > 0) throw new Refusal({ code: 'trigger.not_found', message: 'a hook endpoint is /hooks/<model id>/<trigger id>' });
      const answer = await deliver(deps, req, url, id);
      await record('ok', answer.detail);
      sendJson(res, answer.status, answer.body);
    } catch (err) {
      const refusal = err instanceof Refusal ? err : new Refusal(ActError.is(err) ? err : { code: 'internal', message: errorMessage(err) });
      // a path that names no trigger is not worth an audit entry (scans of the server)
      if (refusal.code !== 'trigger.not_found' && refusal.code !== 'hook.method') await record(refusal.code, { message: refusal.message.slice(0, 300) });
      const status = codeTraits(refusal.code)?.http ?? 500;
      if (status === 413) res.setHeader('connection', 'close');
      sendJson(res, status, { error: { code: refusal.code, message: refusal.message } });
    }
  };
}
