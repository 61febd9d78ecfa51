/**
 * Channels (spec 3.5): glob-filtered subscriptions to messages and process events. A channel id
 * owns one set of handlers; opening a channel with an existing id replaces the earlier handlers.
 * Handlers of one process run one after another in emission order (per-pid queue), so what a
 * client observes for a process is its causal order; handlers of different processes interleave.
 */
import picomatch from 'picomatch';
import type { Message } from '../engine/messages.ts';

export interface ChannelOptions {
  id?: string;
  /** Messages to this channel get a delivery row and are re-sent until acknowledged. */
  ack?: boolean;
  /**
   * With `ack`: the delivery rows are taken by remote workers' polls under a lease (worker-jobs.ts)
   * instead of being re-sent to the handler (timers.ts `redeliver` leaves them alone).
   */
  leased?: boolean;
  type?: string;
  state?: string;
  tag?: string;
  key?: string;
  uses?: string;
}

export type MessageHandler = (message: Message) => unknown;

interface Handlers {
  message?: MessageHandler;
  start?: MessageHandler;
  complete?: MessageHandler;
  error?: MessageHandler;
}

type Matcher = (value: string) => boolean;

function compile(pattern: string | undefined): Matcher {
  if (!pattern || pattern === '*') return () => true;
  const isMatch = picomatch(pattern, { dot: true });
  return (value) => isMatch(value);
}

export class Channel {
  readonly id: string;
  readonly ack: boolean;
  readonly leased: boolean;
  readonly pattern: string;
  private readonly type: Matcher;
  private readonly state: Matcher;
  private readonly tag: Matcher;
  private readonly key: Matcher;
  private readonly uses: Matcher;
  handlers: Handlers = {};

  constructor(
    id: string,
    options: ChannelOptions,
    private readonly onClose: (channel: Channel) => void,
  ) {
    this.id = id;
    this.ack = options.ack === true;
    this.leased = options.leased === true;
    this.type = compile(options.type);
    this.state = compile(options.state);
    this.tag = compile(options.tag);
    this.key = compile(options.key);
    this.uses = compile(options.uses);
    this.pattern = [options.type, options.state, options.tag, options.key].map((p) => p || '*').join(':');
  }

  /** All patterns must match; `tag` matches either the message tag or the model tag. */
  matches(m: Message): boolean {
    return (
      this.type(m.type) &&
      this.state(m.state) &&
      (this.tag(m.tag) || this.tag(m.model.tag)) &&
      this.key(m.key) &&
      this.uses(m.uses)
    );
  }

  /** Process events are filtered by the channel's tag pattern against the model tag. */
  matchesProcess(m: Message): boolean {
    return this.tag(m.model.tag) || this.tag(m.tag);
  }

  onMessage(handler: MessageHandler): this {
    this.handlers.message = handler;
    return this;
  }
  onStart(handler: MessageHandler): this {
    this.handlers.start = handler;
    return this;
  }
  onComplete(handler: MessageHandler): this {
    this.handlers.complete = handler;
    return this;
  }
  onError(handler: MessageHandler): this {
    this.handlers.error = handler;
    return this;
  }

  close(): void {
    this.onClose(this);
  }
}

/** Runs handler calls one after another per process. */
export class OrderedDispatcher {
  private readonly tails = new Map<string, Promise<void>>();
  private pending = 0;
  private waiters: Array<() => void> = [];

  constructor(private readonly onHandlerError: (err: unknown) => void) {}

  dispatch(pid: string, call: () => unknown): void {
    this.pending++;
    const prev = this.tails.get(pid) ?? Promise.resolve();
    const next = prev
      .then(call)
      .then(
        () => undefined,
        (err) => this.onHandlerError(err),
      )
      .finally(() => {
        if (this.tails.get(pid) === next) this.tails.delete(pid);
        this.pending--;
        if (this.pending === 0) for (const w of this.waiters.splice(0)) w();
      });
    this.tails.set(pid, next);
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves when no handler call is queued or running. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
