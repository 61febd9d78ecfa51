/**
 * Inbox notifications by e-mail (docs/server.md, "Inbox notifications"): `startNotifications`
 * runs the watch that queues a mail per task, kind and recipient (watch.ts) and the sender that
 * delivers the queue over SMTP (sender.ts); `mailLinkEndpoint` serves the mails' one-click links.
 * Both stay off the engine's path: they read the store and act through the engine's API.
 */
import type { Logger } from 'pino';
import type { Auth } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import type { ServerStore } from '../store/server-rows.ts';
import { mailComposer } from './compose.ts';
import type { MailConfig } from './config.ts';
import { NotificationSender, type MailTransport } from './sender.ts';
import { smtpTransport } from './transport.ts';
import { InboxWatch } from './watch.ts';

export { mailConfigFrom, type MailConfig } from './config.ts';
export { mailLinkEndpoint, MAIL_LINKS_BASE } from './link-endpoint.ts';

export interface NotificationDeps {
  engine: Engine;
  auth: Pick<Auth, 'users'>;
  store: Pick<ServerStore, 'notifications' | 'mailLinkUses' | 'serverQueries'>;
  config: MailConfig;
  log: Logger;
  /** Default: SMTP on `config.smtpUrl`. */
  transport?: MailTransport;
  now?: () => number;
  /** How often the watch reads the inbox and the sender the queue (ms; tests shorten them). */
  watchMs?: number;
  sendMs?: number;
}

export interface Notifications {
  watch: InboxWatch;
  sender: NotificationSender;
  close(): Promise<void>;
}

export function startNotifications(deps: NotificationDeps): Notifications {
  const { engine, config, log, now } = deps;
  const sender = new NotificationSender({
    store: deps.store,
    transport: deps.transport ?? smtpTransport(config.smtpUrl, config.from),
    compose: mailComposer(engine, config, now),
    log,
    linkTtlMs: config.linkTtlMs,
    now,
    pollMs: deps.sendMs,
  });
  const watch = new InboxWatch({ engine, auth: deps.auth, store: deps.store, maxRecipients: config.maxRecipients, onCreated: () => sender.kick(), log, now, pollMs: deps.watchMs });
  sender.start();
  watch.start();
  return {
    watch,
    sender,
    close: async () => {
      await watch.close();
      await sender.close();
    },
  };
}
