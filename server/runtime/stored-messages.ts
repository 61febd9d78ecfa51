/**
 * Which of a store batch's messages get a row (issue 12, item 3; docs/engine-decisions.md,
 * "Messages and channels"). Every message goes out live to the events and the channels; the
 * store keeps the ones still worth reading after the batch: a task's `created` message is left
 * out when the same batch also holds a later message of that task (its end, usually) and no
 * channel must acknowledge it (no delivery of it in the batch). The later message carries the
 * task's start time, inputs and outputs, so the run page, its timeline and replay lose only a
 * "created" entry of a task that never waited — while a task that waits (an act for a person or a
 * worker) ends its turn with its `created` message stored, as before.
 */
import type { DeliveryRow, MessageRow } from '../store/contract/types.ts';

/** The messages of a batch to store, in emission order. */
export function storedMessages(messages: readonly MessageRow[], deliveries: readonly DeliveryRow[]): readonly MessageRow[] {
  if (messages.length < 2) return messages;
  const delivered = deliveries.length > 0 ? new Set(deliveries.map((d) => d.msg_id)) : undefined;
  // tasks with a message after the one looked at, walking from the newest
  const later = new Set<string>();
  const kept: MessageRow[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const task = `${message.pid}:${message.tid}`;
    if (message.state !== 'created' || !later.has(task) || delivered?.has(message.id)) kept.push(message);
    later.add(task);
  }
  return kept.reverse();
}
