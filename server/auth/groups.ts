/**
 * The groups of the server on the store: teams an interrupt act may be offered to
 * (`params.candidate_groups`). A group is a row (its name and description); who belongs to it is
 * kept on the user rows (`users.groups`), so a caller's groups come with their user row. Create,
 * describe, remove (which takes the group off every member) and set a user's groups, each a
 * membership change reported as an access change of that user once written (their cached
 * credentials and open inbox sockets follow).
 *
 * State: the rows in the store; a Serial that runs each check-then-write section one at a time
 * in this process.
 */
import type { Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import type { GroupRow, ServerStore, UserRow } from '../store/server-rows.ts';
import type { AccessEvents } from './access-events.ts';
import { checkGroupDescription, checkGroupName, checkGroups, storedGroups } from './rules.ts';
import { Serial } from './serial.ts';
import type { GroupInfo, UserInfo } from './types.ts';
import { userInfo } from './users.ts';

export interface GroupDeps {
  store: Pick<ServerStore, 'users' | 'groups'>;
  clock: Clock;
  events: AccessEvents;
}

export class GroupDirectory {
  private readonly serial = new Serial();

  constructor(private readonly deps: GroupDeps) {}

  /** Every group by name, with the names of its members. */
  async list(): Promise<GroupInfo[]> {
    const [groups, users] = await Promise.all([this.deps.store.groups.query({ order_by: ['id'] }), this.deps.store.users.query({ order_by: ['name'] })]);
    return groups.rows.map((row) => groupInfo(row, users.rows));
  }

  async create(name: string, description: string): Promise<GroupInfo> {
    const id = checkGroupName(name);
    const text = checkGroupDescription(description);
    return this.serial.run(async () => {
      if (await this.deps.store.groups.find(id)) throw new ActError('group.duplicate', `a group named '${id}' already exists`);
      const now = this.deps.clock.now();
      const row: GroupRow = { id, description: text, create_time: now, update_time: now };
      await this.deps.store.groups.create(row);
      return groupInfo(row, []);
    });
  }

  async describe(name: string, description: string): Promise<GroupInfo> {
    const text = checkGroupDescription(description);
    return this.serial.run(async () => {
      const row = { ...(await this.row(name)), description: text, update_time: this.deps.clock.now() };
      await this.deps.store.groups.update(row);
      return groupInfo(row, (await this.deps.store.users.query()).rows);
    });
  }

  /** Removes the group and takes it off every member (tasks offered to it stay open to the others they name, and to admins). */
  async remove(name: string): Promise<void> {
    const changed = await this.serial.run(async () => {
      const row = await this.row(name);
      const members = (await this.deps.store.users.query()).rows.filter((user) => storedGroups(user.groups).includes(row.id));
      for (const user of members) await this.saveUser(user, storedGroups(user.groups).filter((g) => g !== row.id));
      await this.deps.store.groups.delete(row.id);
      return members;
    });
    for (const user of changed) this.deps.events.emit({ userId: user.id, reason: 'groups_changed' });
  }

  /** Sets the groups user `userId` belongs to; every group must exist (`group.not_found` names the others). */
  async setUserGroups(userId: string, groups: string[]): Promise<UserInfo> {
    const wanted = checkGroups(groups);
    const info = await this.serial.run(async () => {
      const user = await this.deps.store.users.find(userId);
      if (!user) throw new ActError('user.not_found', `no user '${userId}'`);
      const missing = [];
      for (const g of wanted) if (!(await this.deps.store.groups.find(g))) missing.push(g);
      if (missing.length > 0) throw new ActError('group.not_found', `no group named ${missing.map((g) => `'${g}'`).join(', ')}: create it first`, { missing });
      return this.saveUser(user, wanted);
    });
    this.deps.events.emit({ userId: info.id, reason: 'groups_changed' });
    return info;
  }

  private async saveUser(user: UserRow, groups: string[]): Promise<UserInfo> {
    const saved = { ...user, groups, update_time: this.deps.clock.now() };
    await this.deps.store.users.update(saved);
    return userInfo(saved);
  }

  private async row(name: string): Promise<GroupRow> {
    const row = typeof name === 'string' && name !== '' ? await this.deps.store.groups.find(name) : undefined;
    if (!row) throw new ActError('group.not_found', `no group named '${String(name)}'`);
    return row;
  }
}

function groupInfo(row: GroupRow, users: readonly UserRow[]): GroupInfo {
  const members = users.filter((user) => storedGroups(user.groups).includes(row.id)).map((user) => user.name);
  return { name: row.id, description: row.description, members, create_time: row.create_time, update_time: row.update_time };
}
