/**
 * A signed-in user changing their own password, on the `Auth` contract alone: the old password is
 * proven by a login (so wrong guesses count against the login limits and are rate limited like
 * any sign-in), the new one is set (which ends every session of the user, the proving one
 * included), and — for a caller signed in by session — a fresh session is opened with it for the
 * caller's browser. A caller using an API token keeps the token and gets no session.
 */
import { ActError } from '../engine/errors.ts';
import { checkPassword } from './rules.ts';
import type { Auth, Caller, Session } from './types.ts';

/**
 * Changes the caller's password; returns the new session of a session caller (null for a token
 * caller). A wrong old password is
 * `auth.invalid`, too many of them `auth.rate_limited`, a new password that breaks the rules
 * `input.invalid` (checked first, before any hashing).
 */
export async function changePassword(auth: Auth, caller: Caller, oldPassword: string, newPassword: string, ip: string): Promise<Session | null> {
  checkPassword(newPassword);
  const proof = await auth.login(caller.name, oldPassword, ip).catch((err: unknown) => {
    if (ActError.is(err) && err.code === 'auth.invalid') throw new ActError('auth.invalid', 'the current password is wrong');
    throw err;
  });
  if (proof.caller.userId !== caller.userId) {
    await auth.logout(proof.token);
    throw new ActError('auth.invalid', 'the current password is wrong');
  }
  await auth.users.setPassword(caller.userId, newPassword);
  return caller.via === 'session' ? auth.login(caller.name, newPassword, ip) : null;
}
