/** Removes the e2e server's temp data directory once the run is over. */
import { rm } from 'node:fs/promises';
import { E2E_DIR } from './env.ts';

export default async function teardown(): Promise<void> {
  await rm(E2E_DIR, { recursive: true, force: true });
}
