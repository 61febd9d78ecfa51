/**
 * A program (`node --import tsx e2e/helpers/make-stuck-scene.ts <database url>`): builds the
 * damaged process of test/helpers/stuck-scene.ts on that database — before a server opens it —
 * and prints `{"stuck": pid, "healthy": pid}` as its last line. Run in a child process so the
 * store opens in the server's own runtime (tsx), not in the Playwright worker.
 */
import { openStore } from '../../server/store/open-store.ts';
import { makeStuckScene } from '../../test/helpers/stuck-scene.ts';

const url = process.argv[2];
if (!url) {
  console.error('usage: make-stuck-scene.ts <database url>');
  process.exit(2);
}
const scene = await makeStuckScene(() => openStore(url));
process.stdout.write(`${JSON.stringify(scene)}\n`);
