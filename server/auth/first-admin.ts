/**
 * The first admin: the setup page while no admin exists, or `ACTS_ADMIN_PASSWORD` at start-up.
 * There is no default password anywhere: without either, nobody can sign in until setup is done.
 */
import { ActError } from '../engine/errors.ts';
import type { Auth, UserInfo } from './types.ts';

/** The user name `ensureAdminFromEnv` creates. */
export const ENV_ADMIN_NAME = 'admin';

/**
 * Creates the user `admin` with the password in `ACTS_ADMIN_PASSWORD` when it is set and no admin
 * exists yet; returns the new admin, or null when nothing was done. A password that breaks the
 * password rules is an `input.invalid` naming the variable; a non-admin user already named `admin`
 * is a `user.duplicate`.
 */
export async function ensureAdminFromEnv(auth: Auth, env: NodeJS.ProcessEnv = process.env): Promise<UserInfo | null> {
  const password = env.ACTS_ADMIN_PASSWORD;
  if (!password || !(await auth.setupNeeded())) return null;
  try {
    return await auth.setup(ENV_ADMIN_NAME, password);
  } catch (err) {
    if (!ActError.is(err)) throw err;
    if (err.code === 'auth.setup_done') return null; // another instance was faster
    if (err.code === 'input.invalid') throw new ActError('input.invalid', `ACTS_ADMIN_PASSWORD: ${err.message}`);
    throw err;
  }
}
