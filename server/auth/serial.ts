/**
 * Runs async sections one after another (a promise-chain mutex), for the user changes whose
 * check and write must not interleave (the last admin, the first admin, unique names).
 *
 * State: the tail of the chain: idle (settled) or busy (a section running, others queued behind).
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
