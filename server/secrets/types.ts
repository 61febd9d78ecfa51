import type { ServerStore } from '../store/server-rows.ts';
import type { SecretBus } from './secret-bus.ts';

/** What the secrets need of the store: their table, and the cross-server wake-ups when it has them. */
export type SecretStore = Pick<ServerStore, 'secrets'> & SecretBus;

/** What the secrets store shows of a secret: its name and history, never its value. */
export interface SecretInfo {
  name: string;
  create_time: number;
  create_by: string;
  update_time: number;
  update_by: string;
}
