/**
 * Credentials resolved a moment ago (sessions, API tokens), so that a call does not read its
 * session (or token) row and its user's row every time. An entry is used for at most `freshMs`
 * after it was read; an access change of its user drops it at once — one made in this process
 * (AccessEvents), or, on a store several servers share, one another server announced
 * (create-auth.ts) — so the freshness bound is only what a change made past this server's auth
 * (a lost notification, a row edited by hand) can cost. Only credentials that resolved are kept.
 *
 * State: per credential hash, the row and its user as read and when (performance.now()); per
 * user, the hashes of their entries. At most `max` entries: the oldest one leaves for a new one.
 */
import type { UserRow } from '../store/server-rows.ts';

/** How long a resolved credential is used without reading it again, ms. */
export const CREDENTIAL_FRESH_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry<R> {
  row: R;
  user: UserRow;
  at: number;
}

export class CredentialCache<R> {
  private readonly entries = new Map<string, Entry<R>>();
  private readonly byUser = new Map<string, Set<string>>();

  constructor(
    private readonly freshMs = CREDENTIAL_FRESH_MS,
    private readonly max = MAX_ENTRIES,
  ) {}

  /** The credential's row and user, when read less than `freshMs` ago. */
  get(hash: string): { row: R; user: UserRow } | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (performance.now() - entry.at < this.freshMs) return entry;
    this.drop(hash);
    return undefined;
  }

  /** Keeps what was just read (or written) for the credential `hash`. */
  set(hash: string, row: R, user: UserRow): void {
    if (!this.entries.has(hash) && this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.drop(hash);
    this.entries.set(hash, { row, user, at: performance.now() });
    let hashes = this.byUser.get(user.id);
    if (!hashes) this.byUser.set(user.id, (hashes = new Set()));
    hashes.add(hash);
  }

  drop(hash: string): void {
    const entry = this.entries.get(hash);
    if (!entry) return;
    this.entries.delete(hash);
    const hashes = this.byUser.get(entry.user.id);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.byUser.delete(entry.user.id);
  }

  /**
   * Keeps a credential that resolved: as it was read when no use needs writing (`touched`
   * null), else once `write(touched)` stored the use — false when the row went meanwhile (a
   * logout, a revocation), and the credential then no longer resolves. Whether it resolves.
   */
  async keep(hash: string, read: { row: R; user: UserRow; cached: boolean }, touched: R | null, write: (row: R) => Promise<boolean>): Promise<boolean> {
    if (touched === null) {
      if (!read.cached) this.set(hash, read.row, read.user);
      return true;
    }
    if (!(await write(touched))) {
      this.drop(hash);
      return false;
    }
    this.set(hash, touched, read.user);
    return true;
  }

  /** Forgets every credential of `userId` (their access may have shrunk). */
  dropUser(userId: string): void {
    for (const hash of [...(this.byUser.get(userId) ?? [])]) this.drop(hash);
  }
}
