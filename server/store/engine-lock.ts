/**
 * The engine lock of a SQLite store: proof that one engine uses the database file, which dies
 * with the process that holds it. It is a small SQLite file beside the database
 * (`<file>-engine.lock`) held in an EXCLUSIVE transaction on a connection of its own: SQLite's
 * POSIX advisory locks, which the kernel drops when the process ends however it ends (SIGKILL,
 * OOM), and which SQLite also enforces between connections of one process. No process id is
 * consulted, so a restarted container (PID 1 again) or a reused PID cannot keep it held.
 *
 * State: free → held (`tryAcquire()` true; a second `tryAcquire()` false until released) → free
 * (`release()`, or the process died).
 */
import Database from 'better-sqlite3';

/** The lock file of a SQLite database file. */
export const engineLockFile = (databaseFile: string): string => `${databaseFile}-engine.lock`;

export class SqliteEngineLock {
  private db: Database.Database | null = null;

  constructor(readonly file: string) {}

  /** Takes the lock; false when another connection (in any process) holds it, or this one already does. */
  tryAcquire(): boolean {
    if (this.db) return false;
    let db: Database.Database | undefined;
    try {
      db = new Database(this.file, { timeout: 0 });
      db.pragma('journal_mode = OFF'); // nothing is ever written: no journal file
      db.exec('BEGIN EXCLUSIVE');
      this.db = db;
      return true;
    } catch (err) {
      db?.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw err;
    }
  }

  get held(): boolean {
    return this.db !== null;
  }

  release(): void {
    const db = this.db;
    this.db = null;
    db?.close(); // closing the connection ends the transaction and drops the lock
  }
}
