/**
 * One QuickJS runtime + context with the bootstrap installed (stateful: owns QuickJS handles).
 *
 * The sandbox keeps one `Vm` alive across evaluations and replaces it after a limit breach. Every
 * handle created here is disposed in `dispose()` or right after use, because quickjs-emscripten
 * asserts on leaked handles when a runtime is freed.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import type { SandboxLimits } from './types.ts';
import { bootstrapSource } from './bootstrap.ts';
import type { HostHandler } from './host-bridge.ts';
import { Mode, Op } from './protocol.ts';

/**
 * QuickJS measures its stack use on the WebAssembly shadow stack, which grows roughly a third as
 * fast as the V8 stack the same calls consume. Giving QuickJS 3/8 of the configured budget makes its
 * own "stack overflow" error fire before V8's stack runs out for ordinary recursion (an overflow of
 * V8's stack inside WebAssembly costs the whole module, see wasm-modules.ts).
 */
const QUICKJS_STACK_SHARE = 3 / 8;

export type ModeCode = (typeof Mode)[keyof typeof Mode];

/** The JSON text `exec` returned, or the dumped value the VM threw. */
export type CallOutcome = { ok: true; json: string } | { ok: false; error: unknown };

export interface VmOptions {
  limits: SandboxLimits;
  osName: string;
  shouldInterrupt: () => boolean;
  /** What the evaluation may still run, ms (0: past its limit), asked when the VM's own clock says it is over. */
  timeLeft: () => number;
  handler: HostHandler;
}

export class Vm {
  readonly module: QuickJSWASMModule;
  /** Set when the VM reported state it cannot clean up; the owner must replace this VM. */
  dirty = false;
  /** Set when a guarded builtin saw the evaluation past its deadline (reset by every `call`). */
  expired = false;
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly exec: QuickJSHandle;
  private readonly modes = new Map<number, QuickJSHandle>();

  constructor(module: QuickJSWASMModule, options: VmOptions) {
    this.module = module;
    this.runtime = module.newRuntime();
    try {
      this.runtime.setMemoryLimit(options.limits.memoryBytes);
      this.runtime.setMaxStackSize(Math.round(options.limits.stackBytes * QUICKJS_STACK_SHARE));
      this.runtime.setInterruptHandler(options.shouldInterrupt);
      this.context = this.runtime.newContext();
      this.exec = this.install(options);
      for (const code of Object.values(Mode)) this.modes.set(code, this.context.newNumber(code));
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  private install(options: VmOptions): QuickJSHandle {
    const ctx = this.context;
    const factory = ctx.unwrapResult(ctx.evalCode(bootstrapSource(), 'acts-bootstrap.js', { type: 'global' }));
    const host = ctx.newFunction('host', (...args: QuickJSHandle[]) => {
      const op = ctx.getNumber(args[0]);
      if (op === Op.Dirty) {
        this.dirty = true;
        return undefined;
      }
      if (op === Op.Expired) {
        const left = options.timeLeft();
        if (left > 0) return ctx.newNumber(left);
        this.expired = true;
        throw new Error('interrupted');
      }
      const [a, b, c] = args.slice(1).map((h) => ctx.getString(h));
      const out = options.handler(op, a ?? '', b ?? '', c ?? '');
      return out === undefined ? undefined : ctx.newString(out);
    });
    const osName = ctx.newString(options.osName);
    const timeoutMs = ctx.newNumber(options.limits.timeoutMs);
    try {
      return ctx.unwrapResult(ctx.callFunction(factory, ctx.undefined, host, osName, timeoutMs));
    } finally {
      timeoutMs.dispose();
      osName.dispose();
      host.dispose();
      factory.dispose();
    }
  }

  /** Calls the VM's `exec(mode, source)`. Host-level failures (a V8 stack overflow) propagate. */
  call(mode: ModeCode, source: string): CallOutcome {
    const ctx = this.context;
    const src = ctx.newString(source);
    this.expired = false;
    try {
      const result = ctx.callFunction(this.exec, ctx.undefined, this.modes.get(mode)!, src);
      if (result.error) return { ok: false, error: this.takeError(result.error) };
      const json = ctx.getString(result.value);
      result.value.dispose();
      return { ok: true, json };
    } finally {
      src.dispose();
    }
  }

  /** Compiles `source` as a global script without running it; returns the dumped error or null. */
  compileScript(source: string): unknown {
    const result = this.context.evalCode(source, 'script.js', { type: 'global', compileOnly: true });
    if (result.error) return this.takeError(result.error);
    result.value.dispose();
    return null;
  }

  /** Runs queued promise jobs; false when some are still queued because `expired()` turned true. */
  drainJobs(expired: () => boolean): boolean {
    while (this.runtime.hasPendingJob()) {
      const result = this.runtime.executePendingJobs();
      if (result.error) {
        result.error.dispose();
        if (expired()) return false;
      }
    }
    return true;
  }

  dispose(): void {
    for (const handle of this.modes.values()) if (handle.alive) handle.dispose();
    this.modes.clear();
    if (this.exec?.alive) this.exec.dispose();
    if (this.context?.alive) this.context.dispose();
    if (this.runtime.alive) this.runtime.dispose();
  }

  private takeError(handle: QuickJSHandle): unknown {
    try {
      return this.context.dump(handle);
    } finally {
      if (handle.alive) handle.dispose();
    }
  }
}
