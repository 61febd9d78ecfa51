/**
 * The engine's message API (spec 4.4, 5.6): canonical messages, per-channel deliveries, ack, redo
 * and clear. Every read first waits for the store writer, so it sees what the engine wrote.
 */
import type { Runtime } from './runtime-types.ts';
import type { DeliveryRow, MessageRow, PageData, Query } from '../store/contract/types.ts';

export type MessagesApi = ReturnType<typeof messagesApi>;

export function messagesApi(rt: Runtime) {
  return {
    list: async (query?: Query): Promise<PageData<MessageRow>> => {
      await rt.writer.flush();
      return rt.store.messages.query(query);
    },
    get: async (id: string): Promise<MessageRow | undefined> => {
      await rt.writer.flush();
      return rt.store.messages.find(id);
    },
    deliveries: async (query?: Query): Promise<PageData<DeliveryRow>> => {
      await rt.writer.flush();
      return rt.store.deliveries.query(query);
    },
    /** Acknowledges one delivery; unknown ids are ignored (returns false). */
    ack: async (deliveryId: string): Promise<boolean> => {
      await rt.writer.flush();
      const row = await rt.store.deliveries.find(deliveryId);
      if (!row) return false;
      if (row.status === 'created') await rt.store.deliveries.update({ ...row, status: 'acked', update_time: rt.clock.now() });
      return true;
    },
    rm: async (id: string): Promise<boolean> => {
      await rt.writer.flush();
      return rt.store.messages.delete(id);
    },
    /** Deliveries still waiting for an ack (`created`) and failed ones (`error`), counted in the store. */
    backlog: async (): Promise<{ created: number; error: number }> => {
      await rt.writer.flush();
      const [created, error] = await Promise.all([rt.store.queries.countDeliveries('created'), rt.store.queries.countDeliveries('error')]);
      return { created, error };
    },
    /** Deletes deliveries in `error` (of one process, or all). */
    clear: async (pid?: string): Promise<number> => {
      await rt.writer.flush();
      return rt.store.queries.deleteFailedDeliveries(pid);
    },
    /** Puts every delivery in `error` back to `created` with 0 retries. */
    redo: async (): Promise<number> => {
      await rt.writer.flush();
      const failed = await rt.store.queries.failedDeliveries();
      for (const row of failed) await rt.store.deliveries.update({ ...row, status: 'created', retry_times: 0, update_time: 0 });
      return failed.length;
    },
  };
}
