/**
 * Room names and who may join them: `proc:<pid>` and `model:<mid>` and `health` need the read
 * permission; `design:<mid>` (who has the model open in the designer, presence.ts) needs design; `inbox` needs operate; `audit` (a hint per new audit entry) needs admin. The inbox is split into per-user and per-role rooms so
 * each caller only receives the interrupt tasks they may act on (inbox-access.ts).
 */
import type { Caller } from '../../auth/types.ts';
import { isOpenToAll, type Assignment } from '../../../vocab/inbox-principals.ts';
import { PERMISSIONS, type Permission } from '../../../vocab/roles.ts';

export type RoomRef = { kind: 'proc'; id: string } | { kind: 'model'; id: string } | { kind: 'design'; id: string } | { kind: 'inbox' } | { kind: 'health' } | { kind: 'audit' };

const MAX_ID = 200;

/** Parses a room a client asks for; null when it is not one. */
export function parseRoom(name: unknown): RoomRef | null {
  if (typeof name !== 'string' || name.length > MAX_ID + 6) return null;
  if (name === 'inbox') return { kind: 'inbox' };
  if (name === 'health') return { kind: 'health' };
  if (name === 'audit') return { kind: 'audit' };
  const match = /^(proc|model|design):(.+)$/.exec(name);
  return match ? { kind: match[1] as 'proc' | 'model' | 'design', id: match[2] } : null;
}

export function roomPermission(room: RoomRef): Permission {
  if (room.kind === 'audit') return 'admin';
  if (room.kind === 'design') return 'design';
  return room.kind === 'inbox' ? 'operate' : 'read';
}

export const procRoom = (pid: string) => `proc:${pid}`;
export const modelRoom = (mid: string) => `model:${mid}`;
export const designRoom = (mid: string) => `design:${mid}`;
/** Whether a room name is a designer presence room. */
export const isDesignRoom = (name: string) => name.startsWith('design:');
export const HEALTH_ROOM = 'health';
export const AUDIT_ROOM = 'audit';

const userRoom = (name: string) => `inbox:user:${name}`;
const roleRoom = (role: string) => `inbox:role:${role}`;
const groupRoom = (group: string) => `inbox:group:${group}`;

/** The rooms a caller's sockets join for `inbox`. */
export function callerInboxRooms(caller: Caller): string[] {
  return [userRoom(caller.name), ...caller.roles.map(roleRoom), ...caller.groups.map(groupRoom)];
}

/** The rooms an inbox change of a task with this assignment goes to: the roles that may operate when it is unassigned, else its assignees and roles; the overriding roles (admin) see all. */
export function assignmentRooms(a: Assignment): string[] {
  if (isOpenToAll(a)) return PERMISSIONS.operate.map(roleRoom);
  return [...a.assignees.map(userRoom), ...a.roles.map(roleRoom), ...a.groups.map(groupRoom), ...PERMISSIONS.override.map(roleRoom)];
}
