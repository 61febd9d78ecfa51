/**
 * Tells the inbox rooms a task may be seen in (its assignment's, and the admins') that it changed
 * hands — claimed, released, delegated, reassigned (server/api/claims.ts) — once the change is in
 * the store; through the adapter on every instance. Clients read the inbox again.
 */
import type { Server } from 'socket.io';
import type { Assignment } from '../../../vocab/inbox-principals.ts';
import type { InboxHold } from '../../runtime/read-model-types.ts';
import { inboxHoldEvent } from './payloads.ts';
import { assignmentRooms } from './rooms.ts';

export type InboxHoldFeed = (pid: string, tid: string, assignment: Assignment, hold: InboxHold) => void;

export function inboxHoldFeed(io: () => Server | undefined, cursor: () => number = Date.now): InboxHoldFeed {
  return (pid, tid, assignment, hold) => {
    io()?.to(assignmentRooms(assignment)).emit('inbox', inboxHoldEvent(pid, tid, hold, cursor()));
  };
}
