/**
 * `createServer`: one HTTP server for the engine's API — tRPC at `/api/trpc`, answer files at
 * `/api/files`, socket.io at `/socket.io`, `/healthz`, `/readyz`, `/metrics`, and a pluggable fallback for the studio.
 * The engine, the session store, auth and audit log are injected; the caller owns (and closes) the engine.
 * While it runs, expired sessions are deleted from the store every `sessionSweepMs`, and with
 * `mail` inbox notifications are e-mailed (server/notify; their one-click links at `/mail/act/`).
 *
 * State: created (session sweep running) → listening → closing (readyz 503, no new connections,
 * sockets disconnected, in-flight requests finish or are cut after `drainMs`, sweep stopped) →
 * closed.
 */
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit/types.ts';
import { withAuditFeed } from '../api/live/audit-feed.ts';
import { inboxTaskFeed } from '../api/live/inbox-task-feed.ts';
import { sweepExpiredSessions, type SessionStore } from '../auth/expired-sessions.ts';
import type { Auth } from '../auth/types.ts';
import { DraftBook, type DraftStore } from '../drafts/index.ts';
import { SecretBook, type SecretStore } from '../secrets/index.ts';
import { webhookEndpoint } from './webhooks/endpoint.ts';
import { filesEndpoint } from './files/endpoint.ts';
import { mailLinkEndpoint, startNotifications, type MailConfig, type Notifications } from '../notify/index.ts';
import type { ServerStore } from '../store/server-rows.ts';
import { systemClock } from '../engine/clock.ts';
import type { Engine } from '../runtime/engine.ts';
import type { ApiServices } from '../api/context.ts';
import { attachLive, type Live, type LiveOptions } from '../api/live/socket-server.ts';
import { postgresAdapter, type PgAdapter } from '../api/live/pg-adapter.ts';
import { apiHandler } from './api-handler.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { healthz, metricsEndpoint, readyz } from './probes.ts';
import { dispatcher } from './routes.ts';

export interface ServerOptions {
  engine: Engine;
  /** The store of the server's sessions (expired ones are swept) and drafts; the API reads the engine's rows through `engine.reads`. */
  store: SessionStore & DraftStore & SecretStore & Pick<ServerStore, 'notifications' | 'mailLinkUses' | 'serverQueries'>;
  auth: Auth;
  audit: AuditLog;
  /** The project's secrets, opened with the server's key (the engine's reader too); default: a book without a key (nothing stored yet). */
  secrets?: SecretBook;
  log?: Logger;
  /** `Secure` on the session cookie (set when served over https). Default false. */
  secureCookie?: boolean;
  /** Reverse proxies in front of the server whose `X-Forwarded-For` entries are trusted (`ACTS_TRUST_PROXY`). Default 0. */
  trustProxy?: number;
  /** Origins besides the server's own allowed to open cookie-authenticated sockets. */
  allowedOrigins?: string[];
  /** PostgreSQL URL for the socket.io adapter, so events reach clients on every instance. */
  scaleOutUrl?: string;
  /** Live-channel tuning (tests). */
  live?: Pick<LiveOptions, 'skewMs' | 'maxCatchUp' | 'maxBufferedPackets' | 'healthIntervalMs' | 'now'>;
  /** Inbox notifications by e-mail (server/notify, `ACTS_SMTP_URL` …); absent or null: none, and the one-click links answer `link.off`. */
  mail?: MailConfig | null;
  /** Handler of every other path (the Next.js studio); default 404 JSON. */
  fallback?: RequestListener;
  /** How long closing waits for in-flight requests before cutting them (default 10 s). */
  drainMs?: number;
  /** Period of the expired-session sweep (default 10 minutes). */
  sessionSweepMs?: number;
}

export interface ActsServer {
  http: http.Server;
  live: Live;
  log: Logger;
  /** The e-mail notifications it runs (`mail`), else null. */
  notifications: Notifications | null;
  listen(port: number, host?: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

export async function createServer(options: ServerOptions): Promise<ActsServer> {
  const log = options.log ?? createLogger();
  let closing = false;
  let live: Live | undefined;
  const services: ApiServices = {
    engine: options.engine,
    auth: options.auth,
    // each new entry is a hint to the admins' audit log pages (live/audit-feed.ts)
    audit: withAuditFeed(options.audit, () => live?.io),
    drafts: new DraftBook(options.store, systemClock),
    secrets: options.secrets ?? (await SecretBook.open(options.store, undefined, systemClock)),
    inboxFeed: inboxTaskFeed(() => live?.io),
    log,
    secureCookie: options.secureCookie ?? false,
    trustProxy: options.trustProxy ?? 0,
  };
  const metrics = createMetrics(options.engine, () => live?.io);
  const server = http.createServer(
    dispatcher(
      {
        healthz,
        readyz: readyz(options.engine, () => closing),
        metrics: metricsEndpoint(metrics),
        api: apiHandler(services),
        hooks: webhookEndpoint({ engine: options.engine, secrets: services.secrets, audit: services.audit }),
        files: filesEndpoint(services),
        mail: mailLinkEndpoint({ services, store: options.store, key: options.mail?.linkKey ?? null }),
        fallback: options.fallback,
      },
      log,
    ),
  );
  const pg: PgAdapter | undefined = options.scaleOutUrl ? postgresAdapter(options.scaleOutUrl, log) : undefined;
  live = await attachLive(server, { engine: options.engine, auth: options.auth, log, allowedOrigins: options.allowedOrigins, adapter: pg?.adapter, ...options.live });
  const sessionSweep = sweepExpiredSessions(options.store, {
    intervalMs: options.sessionSweepMs,
    onSwept: (count) => {
      log.info({ count }, 'expired sessions deleted');
      // sockets opened with those sessions lose their access now, not at the next change
      live?.recheckSockets();
    },
    onError: (err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'expired-session sweep failed'),
  });

  const notifications = options.mail ? startNotifications({ engine: options.engine, auth: options.auth, store: options.store, config: options.mail, log }) : null;

  const listen = (port: number, host = '127.0.0.1') =>
    new Promise<AddressInfo>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });

  const close = async () => {
    if (closing) return;
    closing = true;
    const sweepStopped = sessionSweep.stop();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await live!.close();
    const timer = setTimeout(() => server.closeAllConnections(), options.drainMs ?? 10_000);
    await drained;
    clearTimeout(timer);
    metrics.stop();
    await notifications?.close();
    await sweepStopped;
    await pg?.close();
  };

  return { http: server, live, log, notifications, listen, close };
}
