/**
 * The users of the server on the store: create, read, change roles, password and the disabled
 * flag, with the rules that keep the server administrable (at least one role each; the last
 * enabled admin keeps the role and stays enabled).
 *
 * State: the rows in the store; a Serial that runs every check-then-write section (unique name,
 * last admin, first admin) one at a time in this process. Role changes, disabling and password
 * changes are reported as access changes once written.
 */
import type { Clock, IdSource } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import type { ServerStore, UserRow } from '../store/server-rows.ts';
import type { AccessEvents } from './access-events.ts';
import type { PasswordHasher } from './passwords.ts';
import { checkEmail, checkPassword, checkRoles, checkUserName, storedGroups, storedRoles } from './rules.ts';
import { Serial } from './serial.ts';
import type { Auth, Caller, Role, UserInfo } from './types.ts';

export interface UserDeps {
  store: Pick<ServerStore, 'users' | 'serverQueries'>;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdSource;
  events: AccessEvents;
}

/** A user as the API shows it (never the password hash). */
export function userInfo(row: UserRow): UserInfo {
  return { id: row.id, name: row.name, roles: storedRoles(row.roles), groups: storedGroups(row.groups), email: row.email ?? null, disabled: row.disabled, create_time: row.create_time, update_time: row.update_time };
}

export function callerOf(row: UserRow, via: Caller['via']): Caller {
  return { userId: row.id, name: row.name, roles: storedRoles(row.roles), groups: storedGroups(row.groups), via };
}

const isEnabledAdmin = (row: UserRow): boolean => !row.disabled && storedRoles(row.roles).includes('admin');

type UserAdmin = Omit<Auth['users'], 'setGroups'>;

export class UserDirectory implements UserAdmin {
  private readonly serial = new Serial();

  constructor(private readonly deps: UserDeps) {}

  async list(): Promise<UserInfo[]> {
    return (await this.deps.store.users.query({ order_by: ['name'] })).rows.map(userInfo);
  }

  async get(id: string): Promise<UserInfo> {
    return userInfo(await this.row(id));
  }

  async named(name: string): Promise<UserInfo> {
    const row = typeof name === 'string' && name !== '' ? await this.findByName(name) : undefined;
    if (!row) throw new ActError('user.not_found', `no user named '${String(name)}'`);
    return userInfo(row);
  }

  async create(name: string, password: string, roles: Role[]): Promise<UserInfo> {
    checkUserName(name);
    const checked = checkRoles(roles);
    const passwordHash = await this.deps.hasher.hash(checkPassword(password));
    return this.serial.run(() => this.insert(name, passwordHash, checked));
  }

  /** Creates the first admin; `auth.setup_done` once any admin exists. */
  async createFirstAdmin(name: string, password: string): Promise<UserInfo> {
    checkUserName(name);
    const passwordHash = await this.deps.hasher.hash(checkPassword(password));
    return this.serial.run(async () => {
      if (await this.adminExists()) throw new ActError('auth.setup_done', 'the first admin was already set up');
      return this.insert(name, passwordHash, ['admin']);
    });
  }

  async setRoles(id: string, roles: Role[]): Promise<UserInfo> {
    const checked = checkRoles(roles);
    const info = await this.serial.run(async () => {
      const row = await this.row(id);
      if (!checked.includes('admin')) await this.keepAnAdmin(row, 'lose the admin role');
      return this.save({ ...row, roles: checked });
    });
    this.deps.events.emit({ userId: info.id, reason: 'roles_changed' });
    return info;
  }

  /** Also ends the user's sessions (API tokens stay: they are revoked one by one). */
  async setPassword(id: string, password: string): Promise<void> {
    await this.row(id); // user.not_found before spending a hash
    const passwordHash = await this.deps.hasher.hash(checkPassword(password));
    await this.serial.run(async () => this.save({ ...(await this.row(id)), password_hash: passwordHash }));
    await this.endSessions(id);
    this.deps.events.emit({ userId: id, reason: 'password_changed' });
  }

  /** Disabling also ends the user's sessions; their API tokens stop resolving while disabled. */
  async setDisabled(id: string, disabled: boolean): Promise<UserInfo> {
    const info = await this.serial.run(async () => {
      const row = await this.row(id);
      if (disabled) await this.keepAnAdmin(row, 'be disabled');
      return this.save({ ...row, disabled });
    });
    if (disabled) {
      await this.endSessions(id);
      this.deps.events.emit({ userId: id, reason: 'user_disabled' });
    }
    return info;
  }

  async setEmail(id: string, email: string | null): Promise<UserInfo> {
    const checked = email === null ? null : checkEmail(email);
    return this.serial.run(async () => this.save({ ...(await this.row(id)), email: checked }));
  }

  /** The row of a user name, exactly as stored. */
  async findByName(name: string): Promise<UserRow | undefined> {
    return this.deps.store.serverQueries.userNamed(name);
  }

  /** The row of a user who may act now (exists and is not disabled). */
  async findEnabled(id: string): Promise<UserRow | undefined> {
    const row = await this.deps.store.users.find(id);
    return row && !row.disabled ? row : undefined;
  }

  /** Whether any user (even a disabled one) holds the admin role. */
  async adminExists(): Promise<boolean> {
    return (await this.deps.store.users.query()).rows.some((row) => storedRoles(row.roles).includes('admin'));
  }

  private async row(id: string): Promise<UserRow> {
    const row = typeof id === 'string' && id !== '' ? await this.deps.store.users.find(id) : undefined;
    if (!row) throw new ActError('user.not_found', `no user '${String(id)}'`);
    return row;
  }

  /** Whether `row` is an enabled admin and no other user is one. */
  async isLastEnabledAdmin(row: UserRow): Promise<boolean> {
    if (!isEnabledAdmin(row)) return false;
    return !(await this.deps.store.users.query()).rows.some((other) => other.id !== row.id && isEnabledAdmin(other));
  }

  /** Refuses (auth.forbidden) when `row` is the last enabled admin. */
  private async keepAnAdmin(row: UserRow, change: string): Promise<void> {
    if (await this.isLastEnabledAdmin(row)) throw new ActError('auth.forbidden', `'${row.name}' is the last enabled admin and cannot ${change}`);
  }

  private async insert(name: string, passwordHash: string, roles: Role[]): Promise<UserInfo> {
    const duplicate = () => new ActError('user.duplicate', `a user named '${name}' already exists`);
    if (await this.findByName(name)) throw duplicate();
    const now = this.deps.clock.now();
    const row: UserRow = { id: this.deps.ids(16), name, password_hash: passwordHash, roles, disabled: false, create_time: now, update_time: now };
    try {
      await this.deps.store.users.create(row);
    } catch (err) {
      // Another server instance took the name in between (the unique index refused the row).
      if (await this.findByName(name)) throw duplicate();
      throw err;
    }
    return userInfo(row);
  }

  private async save(row: UserRow): Promise<UserInfo> {
    const saved = { ...row, update_time: this.deps.clock.now() };
    await this.deps.store.users.update(saved);
    return userInfo(saved);
  }

  private async endSessions(userId: string): Promise<void> {
    await this.deps.store.serverQueries.deleteSessionsOfUser(userId);
  }
}
