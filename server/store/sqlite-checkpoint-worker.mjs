// Entry of the SQLite store's checkpoint thread (sqlite-checkpointer.ts): its own connection to
// the database file moves the pages of committed transactions from the WAL into the database
// (`PRAGMA wal_checkpoint(PASSIVE)`: never waits for, never blocks the engine's writer), every
// `intervalMs`, until told to stop. Plain JavaScript: nothing to compile in a worker.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData;
const db = new Database(file, { fileMustExist: true });
let stopped = false;

function checkpoint() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy (another checkpoint runs) or the file is going away: the next round tries again
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop' || stopped) return;
  stopped = true;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
  parentPort.close();
});
