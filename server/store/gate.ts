/**
 * A FIFO shared/exclusive gate. SQLite runs every query of a Prisma client on ONE connection, so a
 * query started while a batch transaction is open would silently run inside it (and be rolled back
 * with it). The SQLite store therefore runs single operations as `shared` and batches as
 * `exclusive`: a batch waits for running operations, operations wait for the batch.
 *
 * State: `sharedHolders` (operations running), `exclusiveHeld` (a batch running) and a FIFO queue of
 * waiters; a waiter is admitted only when everything queued before it has been admitted.
 */
interface Waiter {
  exclusive: boolean;
  admit: () => void;
}

export class Gate {
  private sharedHolders = 0;
  private exclusiveHeld = false;
  private readonly queue: Waiter[] = [];

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(false);
    try {
      return await fn();
    } finally {
      this.sharedHolders--;
      this.drain();
    }
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(true);
    try {
      return await fn();
    } finally {
      this.exclusiveHeld = false;
      this.drain();
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.queue.length === 0 && this.fits(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ exclusive, admit: resolve }));
  }

  private fits(exclusive: boolean): boolean {
    return exclusive ? !this.exclusiveHeld && this.sharedHolders === 0 : !this.exclusiveHeld;
  }

  private take(exclusive: boolean): void {
    if (exclusive) this.exclusiveHeld = true;
    else this.sharedHolders++;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0].exclusive)) {
      const waiter = this.queue.shift() as Waiter;
      this.take(waiter.exclusive);
      waiter.admit();
    }
  }
}
