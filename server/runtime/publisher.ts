/**
 * Messages out (spec 3.3–3.5, 5.6): a task event's message is stored with the job's batch, goes
 * out as the typed `message` event (synchronously, in the job) and is handed to every matching
 * channel — a channel with `ack` gets a delivery row first, settled by the client's ack or re-sent
 * by the tick — through the ordered dispatcher (one process's messages reach a handler in order,
 * after the job). Process events (`on_start`, `on_complete`, `on_error`) go the same way, without
 * rows, after the typed `started` / `finished` event.
 *
 * State: `deliveriesMayExist` — whether a `created` delivery may be in the store, so that an action
 * ending a task's wait must settle the task's deliveries (a standalone write that reads). True
 * until a count found none (at start, and again after processes were claimed from another
 * instance, which may have made some); set again by every delivery made here and by every claim.
 * `made` counts the deliveries made here, so a count that raced one does not clear the flag.
 */
import type { IdSource } from '../engine/clock.ts';
import type { Message } from '../engine/messages.ts';
import type { Process } from '../engine/process.ts';
import type { DeliveryRow, Store } from '../store/contract/types.ts';
import type { Channel, OrderedDispatcher } from './channels.ts';
import type { TypedEmitter } from './events.ts';
import type { EngineEvents } from './events.ts';
import type { JobBatch } from './job-batch.ts';
import type { StoreWriter } from './store-writer.ts';
import { ROW_ID_LENGTH } from '../engine/model/ids.ts';

export interface PublisherParts {
  channels: Map<string, Channel>;
  dispatcher: OrderedDispatcher;
  batch: JobBatch;
  events: TypedEmitter<EngineEvents>;
  store: Store;
  writer: StoreWriter;
  newId: IdSource;
  now: () => number;
}

export class Publisher {
  private deliveriesMayExist = true;
  private made = 0;

  constructor(private readonly parts: PublisherParts) {
    void this.countDeliveries();
    parts.events.on('processesClaimed', () => {
      this.deliveriesMayExist = true;
      void this.countDeliveries();
    });
  }

  /** Clears `deliveriesMayExist` when the store holds no `created` delivery and none was made meanwhile. */
  private async countDeliveries(): Promise<void> {
    const made = this.made;
    const waiting = await this.parts.store.queries.countDeliveries('created').catch(() => 1);
    if (waiting === 0 && this.made === made) this.deliveriesMayExist = false;
  }

  /** Stores the canonical message and hands a copy to every matching channel. */
  publish(message: Message): void {
    const { retry_times: _r, delivery_id: _d, ...row } = message;
    this.parts.batch.addMessage(row);
    this.parts.events.emit('message', message);
    for (const channel of this.parts.channels.values()) {
      if (!channel.handlers.message || !channel.matches(message)) continue;
      this.deliver(channel, message);
    }
  }

  private deliver(channel: Channel, message: Message): void {
    let copy = message;
    if (channel.ack && message.retry_times === 0) {
      const now = this.parts.now();
      const delivery: DeliveryRow = {
        id: this.parts.newId(ROW_ID_LENGTH),
        msg_id: message.id,
        chan_id: channel.id,
        pid: message.pid,
        tid: message.tid,
        status: 'created',
        retry_times: 0,
        create_time: now,
        update_time: now,
      };
      this.parts.batch.addDelivery(delivery);
      this.made++;
      this.deliveriesMayExist = true;
      copy = { ...message, delivery_id: delivery.id };
    }
    const handler = channel.handlers.message;
    if (handler) this.parts.dispatcher.dispatch(message.pid, () => handler(copy));
  }

  /**
   * Process-level events: the typed `started` / `finished` event (synchronously, in the job), then
   * the channels' `on_start`, `on_complete`, `on_error` (through the dispatcher, after the job).
   */
  processEvent(proc: Process, kind: 'start' | 'complete' | 'error', message: Message): void {
    this.parts.events.emit(kind === 'start' ? 'started' : 'finished', { proc, message });
    for (const channel of this.parts.channels.values()) {
      const handler = channel.handlers[kind];
      if (handler && channel.matchesProcess(message)) this.parts.dispatcher.dispatch(message.pid, () => handler(message));
    }
  }

  /** Closes the deliveries of a task's `created` messages after an action settled it (spec 5.6). */
  settleDeliveries(pid: string, tid: string): void {
    if (!this.deliveriesMayExist) return;
    const store = this.parts.store;
    const now = this.parts.now();
    this.parts.writer.write(async () => {
      for (const row of await store.queries.createdDeliveriesOfTask(pid, tid)) {
        // Only notices of the waiting state are settled; a message about the new state stays due.
        const message = await store.messages.find(row.msg_id);
        if (message && message.state !== 'created') continue;
        await store.deliveries.update({ ...row, status: 'completed', update_time: now });
      }
    });
  }
}
