/**
 * The Next.js studio (app/, components/) served by the custom server: `createStudio` prepares
 * the Next app and returns the request listener for `createServer`'s `fallback`.
 *
 * Mode (`studioMode`): `ACTS_STUDIO=off` serves the API only; `ACTS_STUDIO=dev` forces the dev
 * server (Turbopack, hot reload); otherwise production when NODE_ENV=production or a build
 * exists (`.next/BUILD_ID`, made by `npm start`'s prestart), else dev. Production without a build
 * fails with what to run. Next is imported only when the studio is on, so API-only starts stay lean.
 *
 * State: preparing → ready (handler serves) → closed.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from 'pino';

export type StudioMode = 'off' | 'dev' | 'production';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface Studio {
  mode: Exclude<StudioMode, 'off'>;
  handler: RequestListener;
  close(): Promise<void>;
}

/** Whether a production build of the studio exists under `dir`. */
export function hasBuild(dir = REPO_ROOT): boolean {
  return existsSync(path.join(dir, '.next', 'BUILD_ID'));
}

export function studioMode(env: NodeJS.ProcessEnv, dir = REPO_ROOT): StudioMode {
  const setting = (env.ACTS_STUDIO ?? '').toLowerCase();
  if (setting === 'off' || setting === '0' || setting === 'false') return 'off';
  if (setting === 'dev') return 'dev';
  return env.NODE_ENV === 'production' || hasBuild(dir) ? 'production' : 'dev';
}

/** The part of Next's custom-server API used here (typed locally: next's root types would
 * redeclare `process.env.NODE_ENV` for the whole server, see components/css-modules.d.ts). */
interface NextApp {
  prepare(): Promise<void>;
  getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  close(): Promise<void>;
}
type NextFactory = (options: { dev: boolean; dir: string; turbopack?: boolean; hostname?: string; port?: number; quiet?: boolean }) => NextApp;

export interface StudioOptions {
  mode: Exclude<StudioMode, 'off'>;
  log: Logger;
  dir?: string;
  hostname?: string;
  port?: number;
}

export async function createStudio(options: StudioOptions): Promise<Studio> {
  const { mode, log } = options;
  const dir = options.dir ?? REPO_ROOT;
  const dev = mode === 'dev';
  if (!dev && !hasBuild(dir)) throw new Error('the studio has no production build: run `npm run studio:build` (npm start does it by itself), or set ACTS_STUDIO=off');
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';
  // React and Next pick their production builds from NODE_ENV.
  process.env.NODE_ENV ??= dev ? 'development' : 'production';
  const started = Date.now();
  const next = createRequire(import.meta.url)('next') as NextFactory;
  const app = next({ dev, dir, turbopack: dev, hostname: options.hostname, port: options.port, quiet: !dev });
  await app.prepare();
  log.info({ mode, ms: Date.now() - started }, 'studio ready');
  const handle = app.getRequestHandler();
  return {
    mode,
    handler: (req, res) => handle(req, res),
    close: () => app.close(),
  };
}

/** The studio as the environment asks for it (see `studioMode`), or null when it is off. */
export async function studioFromEnv(env: NodeJS.ProcessEnv, log: Logger): Promise<Studio | null> {
  const mode = studioMode(env);
  if (mode === 'off') return null;
  // The dev server only accepts its HMR socket from this host (and localhost).
  return createStudio({ mode, log, hostname: env.HOST || '127.0.0.1', port: env.PORT ? Number(env.PORT) : undefined });
}
