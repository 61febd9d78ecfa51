/**
 * Relay records (relay.ts): the outbox rows that carry work to the instance that runs a process,
 * and the NOTIFY topics that wake the instances concerned when a batch with such records commits.
 */
import type { Clock } from '../engine/clock.ts';
import type { Vars } from '../engine/model/types.ts';
import type { OpRow, Store } from '../store/contract/types.ts';
import { ROW_ID_LENGTH } from '../engine/model/ids.ts';

export const RELAY_TOPIC = 'acts_relay';
export const RELAY_DONE_TOPIC = 'acts_relay_done';

/** What writing a relay record needs of the engine. */
export interface RecordWriter {
  readonly clock: Clock;
  newId(size: number): string;
  readonly outbox: { write(op: OpRow): void };
}

export function relayRecord(engine: Pick<RecordWriter, 'clock' | 'newId'>, pid: string, tid: string, event: string, options: Vars): OpRow {
  const now = engine.clock.now();
  return { id: engine.newId(ROW_ID_LENGTH), type: 'relay', pid, tid, event, options, status: 'pending', create_time: now, update_time: now };
}

/** Queues a relay record in the batch of the job that runs now. */
export function relayLater(engine: RecordWriter, pid: string, tid: string, event: string, options: Vars): void {
  engine.outbox.write(relayRecord(engine, pid, tid, event, options));
}

/** Wakes the instances concerned by relay records of a batch (sent when it commits). */
export async function notifyRelays(tx: Store, ops: readonly OpRow[]): Promise<void> {
  if (!tx.notify) return;
  const relays = ops.filter((op) => op.type === 'relay');
  if (relays.some((op) => op.status === 'pending')) await tx.notify(RELAY_TOPIC, '');
  const done = relays.filter((op) => op.status === 'done').map((op) => op.id);
  if (done.length > 0) await tx.notify(RELAY_DONE_TOPIC, done.join(','));
}

/** Whether processes of this store may run on several instances (PostgreSQL). */
export const multiInstance = (store: Store): boolean => store.backend === 'postgresql';
