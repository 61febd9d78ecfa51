/**
 * The engine's message API (spec 4.4, 5.6): canonical messages, per-channel deliveries, ack, redo
 * and clear. Every read first waits for the store writer, so it sees what the engine wrote.
 */
import type { Core } from './core.ts';
import type { DeliveryRow, MessageRow, PageData, Query } from '../store/contract/types.ts';

export type MessagesApi = ReturnType<typeof messagesApi>;

export function messagesApi(core: Core) {
  return {
    list: async (query?: Query): Promise<PageData<MessageRow>> => {
      await core.writer.flush();
      return core.store.messages.query(query);
    },
    get: async (id: string): Promise<MessageRow | undefined> => {
      await core.writer.flush();
      return core.store.messages.find(id);
    },
    deliveries: async (query?: Query): Promise<PageData<DeliveryRow>> => {
      await core.writer.flush();
      return core.store.deliveries.query(query);
    },
    /** Acknowledges one delivery; unknown ids are ignored (returns false). */
    ack: async (deliveryId: string): Promise<boolean> => {
      await core.writer.flush();
      const row = await core.store.deliveries.find(deliveryId);
      if (!row) return false;
      if (row.status === 'created') await core.store.deliveries.update({ ...row, status: 'acked', update_time: core.now() });
      return true;
    },
    rm: async (id: string): Promise<boolean> => {
      await core.writer.flush();
      return core.store.messages.delete(id);
    },
    /** Deliveries still waiting for an ack (`created`) and failed ones (`error`), counted in the store. */
    backlog: async (): Promise<{ created: number; error: number }> => {
      await core.writer.flush();
      const [created, error] = await Promise.all([core.store.queries.countDeliveries('created'), core.store.queries.countDeliveries('error')]);
      return { created, error };
    },
    /** Deletes deliveries in `error` (of one process, or all). */
    clear: async (pid?: string): Promise<number> => {
      await core.writer.flush();
      return core.store.queries.deleteFailedDeliveries(pid);
    },
    /** Puts every delivery in `error` back to `created` with 0 retries. */
    redo: async (): Promise<number> => {
      await core.writer.flush();
      const failed = await core.store.queries.failedDeliveries();
      for (const row of failed) await core.store.deliveries.update({ ...row, status: 'created', retry_times: 0, update_time: 0 });
      return failed.length;
    },
  };
}
