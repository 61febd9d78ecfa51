/**
 * Ordered write-behind queue in front of the store: writes run one after another in the order
 * they were queued, so a later state never lands before an earlier one. States: idle → writing →
 * idle; `flush()` resolves once everything queued before it is written.
 */
export class StoreWriter {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private highWatermark = 0;

  constructor(private readonly onError: (err: unknown) => void) {}

  write(op: () => Promise<unknown>): void {
    this.pending++;
    this.highWatermark = Math.max(this.highWatermark, this.pending);
    this.tail = this.tail
      .then(op)
      .then(
        () => undefined,
        (err) => this.onError(err),
      )
      .finally(() => {
        this.pending--;
      });
  }

  get depth(): number {
    return this.pending;
  }

  get highWater(): number {
    return this.highWatermark;
  }

  flush(): Promise<void> {
    return this.tail;
  }
}
