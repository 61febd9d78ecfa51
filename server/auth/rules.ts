/** What server/auth accepts as a user name, a password, a token name, a set of roles and of groups (`input.invalid` otherwise). */
import { ActError } from '../engine/errors.ts';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME, GROUP_NAME_RULE } from '../../vocab/groups.ts';
import { ROLES, type Role } from '../../vocab/roles.ts';

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_BYTES = 1024;
const USER_NAME = /^[\p{L}\p{N}._@-]{1,64}$/u;
const TOKEN_NAME_MAX_CHARS = 100;

function invalid(message: string): never {
  throw new ActError('input.invalid', message);
}

/** 1–64 letters, digits, `.`, `_`, `@` or `-`. */
export function checkUserName(name: unknown): string {
  if (typeof name !== 'string' || !USER_NAME.test(name)) invalid('a user name is 1 to 64 letters, digits, ".", "_", "@" or "-"');
  return name;
}

/** The longest e-mail address (RFC 5321's path limit). */
export const EMAIL_MAX_CHARS = 254;
const EMAIL = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;

/** An e-mail address as `local@domain.tld`, at most 254 characters, no spaces, quotes or brackets (trimmed). */
export function checkEmail(email: unknown): string {
  const text = typeof email === 'string' ? email.trim() : '';
  if (text.length > EMAIL_MAX_CHARS || !EMAIL.test(text)) invalid(`an e-mail address is local@domain (at most ${EMAIL_MAX_CHARS} characters, no spaces, quotes or brackets)`);
  return text;
}

/** At least 8 characters, at most 1024 bytes of UTF-8 (argon2 is fed nothing bigger). */
export function checkPassword(password: unknown): string {
  if (typeof password !== 'string') invalid('a password must be a string');
  if ([...password].length < PASSWORD_MIN_CHARS) invalid(`a password needs at least ${PASSWORD_MIN_CHARS} characters`);
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) invalid(`a password may have at most ${PASSWORD_MAX_BYTES} bytes`);
  return password;
}

/** A password worth hashing at login (a longer one cannot be anyone's). */
export function passwordFits(password: unknown): password is string {
  return typeof password === 'string' && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}

/** 1–100 characters, not only blanks. */
export function checkTokenName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '' || [...name].length > TOKEN_NAME_MAX_CHARS) {
    invalid(`a token name is 1 to ${TOKEN_NAME_MAX_CHARS} characters`);
  }
  return name;
}

const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** At least one role, each one of ROLES; returned without duplicates, in ROLES order. */
export function checkRoles(roles: unknown): Role[] {
  if (!Array.isArray(roles) || roles.length === 0) invalid(`a user needs at least one role (${ROLES.join(', ')})`);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length > 0) invalid(`unknown role(s) ${unknown.map((role) => JSON.stringify(role)).join(', ')} (expected ${ROLES.join(', ')})`);
  return ROLES.filter((role) => roles.includes(role));
}

/** The roles a stored row holds, ignoring anything that is not a role. */
export function storedRoles(roles: unknown): Role[] {
  return Array.isArray(roles) ? ROLES.filter((role) => roles.includes(role)) : [];
}

/** A group name (vocab/groups.ts). */
export function checkGroupName(name: unknown): string {
  if (typeof name !== 'string' || !GROUP_NAME.test(name)) invalid(GROUP_NAME_RULE);
  return name;
}

/** A group's description: at most GROUP_DESCRIPTION_MAX characters. */
export function checkGroupDescription(description: unknown): string {
  if (typeof description !== 'string' || [...description].length > GROUP_DESCRIPTION_MAX) invalid(`a group description is at most ${GROUP_DESCRIPTION_MAX} characters`);
  return description.trim();
}

/** A set of group names, each valid; returned without duplicates, sorted. */
export function checkGroups(groups: unknown): string[] {
  if (!Array.isArray(groups)) invalid('groups must be a list of group names');
  return [...new Set(groups.map(checkGroupName))].sort();
}

/** The groups a stored row holds, ignoring anything that is not a name. */
export function storedGroups(groups: unknown): string[] {
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}
