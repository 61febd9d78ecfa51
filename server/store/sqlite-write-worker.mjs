// Entry of the SQLite store's write thread (sqlite-write-thread.ts): its own connection to the
// database file runs the store writer's batches — each message a list of statements — and answers
// each with the message's id, the statements and commits it ran and the error when there was one. Group
// commit: the batches waiting when the thread gets to them (at most MAX_GROUP) are written in ONE
// transaction (`BEGIN IMMEDIATE` … `COMMIT`); when that fails it is rolled back and each batch is
// written again in a transaction of its own, so a batch that fails leaves nothing behind, alone.
// One commit for several batches writes the last, partly filled page of every table and index
// once instead of once per batch (bench:peers: a third fewer WAL bytes with two batches a commit).
// Statements are prepared once per text (at most MAX_STATEMENTS kept, the oldest dropped). Plain
// JavaScript: nothing to compile in a worker.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
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

const MAX_GROUP = 64;
const errorText = (err) => (err instanceof Error ? err.message : String(err));

/** Runs the statements of `batches` as one transaction; the statements it ran, or throws (rolled back). */
function writeTogether(batches) {
  let ran = 2;
  statement('BEGIN IMMEDIATE').run();
  try {
    for (const batch of batches) {
      for (const [sql, params] of batch.statements) statement(sql).run(params.map(bindable));
      ran += batch.statements.length;
    }
    statement('COMMIT').run();
    return ran;
  } catch (err) {
    if (db.inTransaction) statement('ROLLBACK').run();
    throw err;
  }
}

/** Writes `batches` in one commit — or, when that fails, each in a commit of its own — and answers each. */
function writeGroup(batches) {
  try {
    const ran = writeTogether(batches);
    batches.forEach((batch, i) => parentPort.postMessage({ id: batch.id, ran: i === 0 ? ran : 0, commits: i === 0 ? 1 : 0 }));
  } catch (err) {
    if (batches.length > 1) return batches.forEach((batch) => writeGroup([batch]));
    parentPort.postMessage({ id: batches[0].id, ran: 0, commits: 0, error: errorText(err) });
  }
}

function stop() {
  db.close();
  parentPort.close();
}

parentPort.on('message', (message) => {
  if (message === 'stop') return stop();
  const batches = [message];
  let stopping = false;
  while (batches.length < MAX_GROUP) {
    const next = receiveMessageOnPort(parentPort);
    if (next === undefined) break;
    if (next.message === 'stop') {
      stopping = true;
      break;
    }
    batches.push(next.message);
  }
  writeGroup(batches);
  if (stopping) stop();
});
