/**
 * Code-worker answers in a fixed order, so a simulated run with code workers repeats exactly.
 * A worker answers whenever its thread is done; the engine meanwhile runs other lanes, child
 * starts and writes, so where an answer lands among them would depend on the machine's speed.
 * The gate hands the answers over one at a time, in the order they were asked for, each only when
 * the engine can do nothing else (`quiet`): every answer lands at a point that the run's own
 * history fixes. By default the oldest answer asked for goes next; `pick` may choose another of
 * those waiting (crash equivalence's alternative interleavings, world.ts `order`): with more than
 * one worker, answers come back in any order, so a real engine sees that order too.
 *
 * State: the answers asked for and not handed over yet, oldest first; whether the pump runs.
 */
interface Waiting {
  /** Settles (never rejects) once the worker answered. */
  answered: Promise<void>;
  handOver: () => void;
}

export class CodeGate {
  private readonly waiting: Waiting[] = [];
  private pumping = false;
  private closed = false;

  constructor(
    private readonly quiet: () => boolean,
    /** Which of the `waiting` answers goes next (an index; default the oldest). */
    private readonly pick: (waiting: number) => number = () => 0,
  ) {}

  /** The engine's `codeAnswers` option. */
  readonly deliver = <T>(answer: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const answered = answer.then(
        () => undefined,
        () => undefined,
      );
      this.waiting.push({ answered, handOver: () => void answer.then(resolve, reject) });
      void this.pump();
    });

  /** The engine is gone: answers still waiting are dropped (its lanes are closed). */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0 && !this.closed) {
        // a macrotask first: what the previous answer set going is queued by then
        do await new Promise((resolve) => setImmediate(resolve));
        while (!this.quiet() && !this.closed);
        const next = this.waiting.splice(this.pick(this.waiting.length), 1)[0];
        if (!next) break;
        await next.answered;
        next.handOver();
      }
    } finally {
      this.pumping = false;
    }
  }
}
