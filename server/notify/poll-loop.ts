/**
 * A loop that runs one async `step` every `pollMs`, or as soon as asked (`kick`), never two at
 * once: a kick during a step runs another right after it. A failing step is handed to `onError`
 * and the loop goes on. The watch (watch.ts) and the sender (sender.ts) each run one.
 *
 * States: idle (a timer set) ⇄ running (a kick marks `again`) → closed (`close` waits for the
 * running step; no timer is set again).
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly step: () => Promise<void>,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.schedule(0);
  }

  kick(): void {
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
  }

  private async run(): Promise<void> {
    this.timer = null;
    this.running = this.step().catch(this.onError);
    await this.running;
    this.running = null;
    const more = this.again;
    this.again = false;
    this.schedule(more ? 0 : this.pollMs);
  }
}
