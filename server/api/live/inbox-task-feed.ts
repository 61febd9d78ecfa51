/**
 * Tells the inbox rooms a task may be seen in (its assignment's, and the admins') that it changed
 * without leaving the inbox — it changed hands (claimed, released, delegated, reassigned:
 * server/api/claims.ts), got a comment or a vote (server/api/routers/inbox-votes.ts) — once the change is in the store; through the adapter on
 * every instance. Clients read the inbox (and an open form, its comments) again.
 */
import type { Server } from 'socket.io';
import type { Assignment } from '../../../vocab/inbox-principals.ts';
import type { InboxHold } from '../../runtime/read-model-types.ts';
import { inboxTaskEvent } from './payloads.ts';
import { assignmentRooms } from './rooms.ts';

export interface InboxTaskFeed {
  held(pid: string, tid: string, assignment: Assignment, hold: InboxHold): void;
  commented(pid: string, tid: string, assignment: Assignment): void;
  voted(pid: string, tid: string, assignment: Assignment): void;
}

export function inboxTaskFeed(io: () => Server | undefined, cursor: () => number = Date.now): InboxTaskFeed {
  return {
    held: (pid, tid, assignment, hold) => io()?.to(assignmentRooms(assignment)).emit('inbox', inboxTaskEvent('held', pid, tid, cursor(), hold)),
    commented: (pid, tid, assignment) => io()?.to(assignmentRooms(assignment)).emit('inbox', inboxTaskEvent('commented', pid, tid, cursor())),
    voted: (pid, tid, assignment) => io()?.to(assignmentRooms(assignment)).emit('inbox', inboxTaskEvent('voted', pid, tid, cursor())),
  };
}
