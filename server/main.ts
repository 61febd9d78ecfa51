/**
 * `npm start`: one Node process with the engine runtime, the tRPC API at `/api/trpc` and
 * socket.io at `/socket.io` on one port. Environment: PORT (3000), HOST (127.0.0.1),
 * DATABASE_URL (file:./data/acts.db) and the other settings of server/runtime/config.ts,
 * ACTS_ADMIN_PASSWORD (creates the user `admin` while no admin exists; otherwise the one-time
 * setup via `auth.setup` stays open until an admin exists), ACTS_SECURE_COOKIE=1 behind https,
 * ACTS_SMTP_URL and the other settings of server/notify/config.ts (inbox notifications by e-mail),
 * ACTS_TRUST_PROXY=<n> behind n reverse proxies, ACTS_SECRETS_KEY (and ACTS_SECRETS_OLD_KEYS: the
 * project's secrets, server/secrets; the start is refused when secrets are stored and it is missing
 * or wrong), LOG_LEVEL, ACTS_STUDIO (off: API only; dev: Next dev
 * server; default: the production build when one exists, see server/http/studio.ts).
 * On PostgreSQL the socket.io PostgreSQL adapter connects the instances.
 */
import type { Logger } from 'pino';
import { trustedProxyHops } from './api/client-address.ts';
import { engineAuditLog } from './audit/engine-writes.ts';
import { createAuth } from './auth/create-auth.ts';
import { ensureAdminFromEnv } from './auth/first-admin.ts';
import type { Auth } from './auth/types.ts';
import { Engine } from './runtime/engine.ts';
import { loadConfig } from './runtime/config.ts';
import { engineOptionsFrom } from './runtime/engine-options.ts';
import { openStore, redactUrl } from './store/open-store.ts';
import { createLogger, engineLogger } from './http/logger.ts';
import { createServer } from './http/server.ts';
import { onShutdown } from './http/shutdown.ts';
import { openSecrets } from './secrets/index.ts';
import { ActError } from './engine/errors.ts';
import { studioFromEnv } from './http/studio.ts';
import { readyLine } from './http/ready-line.ts';
import { mailConfigFrom, type MailConfig } from './notify/index.ts';

/** Creates the first admin from ACTS_ADMIN_PASSWORD, or says that the setup is open (never logs the password). */
async function firstAdmin(auth: Auth, env: NodeJS.ProcessEnv, log: Logger): Promise<void> {
  const admin = await ensureAdminFromEnv(auth, env);
  if (admin) log.info({ user: admin.name }, 'admin user created from ACTS_ADMIN_PASSWORD');
  else if (await auth.setupNeeded()) log.warn('no admin exists and ACTS_ADMIN_PASSWORD is unset: the one-time setup is open (auth.setup) — the first caller to use it becomes admin');
}

/** Says once how inbox notifications go out (or that they do not). */
function mailLine(mail: MailConfig | null, log: Logger): void {
  if (!mail) log.info('ACTS_SMTP_URL is unset: inbox notifications are not e-mailed (the studio still shows them)');
  else if (!mail.linkKey) log.warn({ from: mail.from }, 'inbox notifications are e-mailed without one-click links: set ACTS_MAIL_LINK_KEY (or ACTS_SECRETS_KEY) to sign them');
  else log.info({ from: mail.from, links: mail.publicUrl }, 'inbox notifications are e-mailed with one-click links');
}

async function main(): Promise<void> {
  const env = process.env;
  const log = createLogger();
  const config = loadConfig();
  const trustProxy = trustedProxyHops(env.ACTS_TRUST_PROXY);
  const mail = mailConfigFrom(env);
  mailLine(mail, log);
  const store = await openStore(config.store);
  // refuses to start with stored secrets and no ACTS_SECRETS_KEY (secrets.no_key), or another key (secrets.bad_key)
  const secrets = await openSecrets(store, env);
  const auth = createAuth(store);
  await firstAdmin(auth, env, log);
  // the API serves while the unfinished processes are recovered (/readyz says how far it got)
  const engine = await Engine.create({ ...engineOptionsFrom(config), store, logger: engineLogger(log), recoverInBackground: true, secrets });
  const studio = await studioFromEnv(env, log);
  const server = await createServer({
    engine,
    store,
    auth,
    // audit entries ride in the engine's store transactions (audit/engine-writes.ts)
    audit: engineAuditLog(store, engine),
    secrets,
    log,
    secureCookie: env.ACTS_SECURE_COOKIE === '1',
    trustProxy,
    scaleOutUrl: store.backend === 'postgresql' ? config.store : undefined,
    fallback: studio?.handler,
    mail,
  });
  const address = await server.listen(env.PORT ? Number(env.PORT) : 3000, env.HOST || '127.0.0.1');
  log.info({ url: `http://${address.address}:${address.port}`, store: redactUrl(config.store), backend: store.backend, instance: engine.instanceId }, 'serving');
  process.stderr.write(readyLine(address, studio !== null));
  onShutdown(async () => {
    await server.close();
    await studio?.close();
    await engine.close();
  }, log);
}

main().catch((err: unknown) => {
  const code = ActError.is(err) ? err.code : undefined;
  console.error(JSON.stringify({ level: 'fatal', msg: 'start failed', ...(code ? { code } : {}), err: err instanceof Error ? err.message : String(err) }));
  process.exit(1);
});
