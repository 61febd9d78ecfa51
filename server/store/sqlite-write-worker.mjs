// Entry of the SQLite store's write thread (sqlite-write-thread.ts): its own connection to the
// database file runs the store writer's batches — each message a list of statements, run as ONE
// transaction (`BEGIN IMMEDIATE` … `COMMIT`, rolled back when a statement fails) — and answers
// with the message's id, and the error when there was one. Statements are prepared once per text
// (at most MAX_STATEMENTS kept, the oldest dropped). Plain JavaScript: nothing to compile in a worker.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const MAX_STATEMENTS = 500;
const { file, busyTimeoutMs, walBoundPages } = workerData;
const db = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
// the same settings as the store's own connection (sqlite-connection.ts): the file is in WAL
// mode already; a commit is in the WAL when it returns (it survives a process kill)
db.pragma('synchronous = NORMAL');
db.pragma(`wal_autocheckpoint = ${walBoundPages}`);

const prepared = new Map();

function statement(sql) {
  let stmt = prepared.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    prepared.set(sql, stmt);
    if (prepared.size > MAX_STATEMENTS) prepared.delete(prepared.keys().next().value);
  }
  return stmt;
}

// SQLite binds numbers, strings, bigints, buffers and null: a boolean is stored as 1 or 0
const bindable = (value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

function runAll(statements) {
  statement('BEGIN IMMEDIATE').run();
  try {
    for (const [sql, params] of statements) statement(sql).run(params.map(bindable));
    statement('COMMIT').run();
  } catch (err) {
    if (db.inTransaction) statement('ROLLBACK').run();
    throw err;
  }
}

parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    runAll(message.statements);
    parentPort.postMessage({ id: message.id });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) });
  }
});
