/**
 * Secret changes across the servers of a shared store (PostgreSQL): a server that set or deleted
 * a secret announces it with NOTIFY `acts_secrets` (the name only); every other server reads its
 * secrets again, so its workflows see the change at once. Best effort: a lost notification leaves
 * a server on the values it read last, until the next change or its restart.
 *
 * State: this server's origin id, so that it ignores its own announcements.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/contract/types.ts';

export const SECRETS_TOPIC = 'acts_secrets';

/** The store's cross-instance wake-ups (Store.notify/listen), when it has them. */
export type SecretBus = Partial<Pick<Store, 'notify' | 'listen'>>;

/**
 * Listens for other servers' changes (`reload` runs on each) and resolves once it listens (or
 * could not: then only a restart brings their changes); resolves to how to announce one's own.
 */
export async function shareSecretChanges(bus: SecretBus, reload: () => Promise<void>): Promise<(name: string) => void> {
  const { notify, listen } = bus;
  if (!notify || !listen) return () => undefined;
  const origin = crypto.randomUUID();
  await listen
    .call(bus, SECRETS_TOPIC, (payload) => {
      if (!payload.startsWith(`${origin} `)) void reload().catch(() => undefined);
    })
    .catch(() => undefined);
  return (name) => void notify.call(bus, SECRETS_TOPIC, `${origin} ${name}`).catch(() => undefined);
}
