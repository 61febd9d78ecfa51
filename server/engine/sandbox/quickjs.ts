/**
 * The expression sandbox (spec 2.12) on QuickJS compiled to WebAssembly.
 *
 * State: one runtime + context (`Vm`) reused across evaluations, replaced after a limit breach or
 * when the shared WebAssembly module was retired; a mutable slot with the scope of the evaluation
 * in progress (the VM's helper functions are installed once and always read this slot); the
 * deadline the interrupt handler checks.
 */
import { ActError } from '../errors.ts';
import { EvaluationDeferred, type EvalMode, type Sandbox, type SandboxLimits, type ScriptScope, type TrialOptions } from './types.ts';
import { TrialScope } from './trial-scope.ts';
import { classifyThrown, crashError, thrownMessage } from './failures.ts';
import { createHostHandler, type HostHandler } from './host-bridge.ts';
import { FUNCTION_WRAPPER_LINES, Mode } from './protocol.ts';
import { Vm, type ModeCode } from './vm.ts';
import { threadCpuMs } from './thread-cpu.ts';
import { currentModule, loadModules, retireModule } from './wasm-modules.ts';

/** How many times its limit a full evaluation may take in wall-clock time while it waits for a CPU. */
const WAIT_FACTOR = 5;

export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 200,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
};

/** `os` global: the host OS in the reference's spelling. */
export function hostOsName(platform: string = process.platform): string {
  if (platform === 'win32') return 'windows';
  if (platform === 'darwin') return 'macos';
  return platform;
}

/** Creates a sandbox; the WebAssembly module is loaded once per process. */
export async function createSandbox(limits: Partial<SandboxLimits> = {}): Promise<Sandbox> {
  await loadModules();
  const sandbox = new QuickJsSandbox({ ...DEFAULT_LIMITS, ...limits });
  sandbox.warm();
  return sandbox;
}

class QuickJsSandbox implements Sandbox {
  private readonly limits: SandboxLimits;
  private vm: Vm | undefined;
  private scope: ScriptScope | undefined;
  private deadline = 0;
  private timedOut = false;
  private busy = false;
  private closed = false;
  /** Host time (scope calls) the running evaluation may still add to its deadline. */
  private hostAllowance = 0;
  /** The thread's CPU time when the running (full, not trial) evaluation began; undefined: wall time only. */
  private cpuAtStart: number | undefined;
  /** The wall-clock time past which a full evaluation stops even if its thread got little CPU. */
  private wallCap = 0;
  private readonly scopeHandler = createHostHandler(() => {
    if (!this.scope) throw new Error('no script scope is active');
    return this.scope;
  });
  /**
   * Time spent answering the script's scope calls moves its deadline (up to its time limit once
   * more in total), so a code worker whose calls wait for a busy engine is not cut off early. A call
   * made past the deadline is refused: QuickJS checks its interrupt only every so many operations,
   * which a loop of slow calls would otherwise stretch far beyond the limit.
   */
  private readonly handler: HostHandler = (op, a, b, c) => {
    if (this.pastDeadline()) {
      this.timedOut = true;
      throw new Error('interrupted');
    }
    const started = performance.now();
    try {
      return this.scopeHandler(op, a, b, c);
    } finally {
      const extra = Math.min(performance.now() - started, this.hostAllowance);
      if (this.deadline > 0) this.deadline += extra;
      this.hostAllowance -= extra;
    }
  };

  constructor(limits: SandboxLimits) {
    this.limits = limits;
  }

  evaluate(source: string, scope: ScriptScope, mode: EvalMode = 'script', trial?: TrialOptions): unknown {
    const code = mode === 'function' ? Mode.Function : Mode.Script;
    if (!trial) return this.session(scope, () => this.run(source, code, true));
    // the first write ends the trial at the next interrupt check, even if the script catches it
    const trialScope = new TrialScope(scope, () => (this.deadline = PAST));
    let value: unknown;
    try {
      value = this.session(trialScope, () => this.run(source, code, true, trial.sliceMs));
    } catch (err) {
      if (trialScope.wrote || err instanceof EvaluationDeferred) throw new EvaluationDeferred();
      throw err;
    }
    if (trialScope.wrote) throw new EvaluationDeferred();
    trialScope.flushLogs();
    return value;
  }

  checkSyntax(source: string, mode: EvalMode = 'script'): string | null {
    return this.session(undefined, () => {
      try {
        return this.check(source, mode);
      } catch (err) {
        if (ActError.is(err) && (err.details as { limit?: string } | undefined)?.limit === 'stack') return NESTED_TOO_DEEPLY;
        throw err;
      }
    });
  }

  /** Builds the runtime now (about 10 ms) instead of on the first evaluation. */
  warm(): void {
    this.acquire();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.vm) this.discard(this.vm);
  }

  private session<T>(scope: ScriptScope | undefined, body: () => T): T {
    if (this.closed) throw new ActError('engine.closed', 'the script sandbox is closed');
    if (this.busy) throw new ActError('internal', 'the script sandbox is already evaluating (evaluate is not reentrant)');
    this.busy = true;
    this.scope = scope;
    try {
      return body();
    } finally {
      this.scope = undefined;
      this.busy = false;
    }
  }

  /** `sliceMs`: a trial's budget; running out of it throws `EvaluationDeferred`. */
  private run(source: string, mode: ModeCode, mayRetry: boolean, sliceMs?: number): unknown {
    const vm = this.acquire();
    const outcome = this.guarded(
      vm,
      () => {
        const result = vm.call(mode, source);
        if (vm.expired) this.timedOut = true;
        if (!this.timedOut && !vm.drainJobs(() => this.pastDeadline())) this.timedOut = true;
        return result;
      },
      sliceMs,
    );
    if (vm.dirty) {
      this.discard(vm);
      if (mayRetry) return this.run(source, mode, false, sliceMs);
    }
    if (outcome.ok && !this.timedOut) return JSON.parse(outcome.json);
    if (sliceMs !== undefined && this.timedOut) {
      // an interrupted VM is replaced, as after any time limit
      this.discard(vm);
      throw new EvaluationDeferred();
    }
    const failure = classifyThrown(outcome.ok ? undefined : outcome.error, this.timedOut, this.limits);
    if (failure.breach) this.discard(vm);
    throw failure.error;
  }

  private check(source: string, mode: EvalMode): string | null {
    const vm = this.acquire();
    return this.guarded(vm, () => {
      if (mode === 'function') {
        const outcome = vm.call(Mode.CheckFunction, source);
        if (!outcome.ok) return syntaxMessage(outcome.error, source, undefined, 0);
        const problem = JSON.parse(outcome.json) as { message: string; line?: number } | null;
        return problem && syntaxMessage(problem, source, problem.line, FUNCTION_WRAPPER_LINES);
      }
      const outcome = vm.call(Mode.CheckExpression, source);
      if (!outcome.ok) return syntaxMessage(outcome.error, source, undefined, 0);
      if (outcome.json === 'true') return null;
      const thrown = vm.compileScript(source);
      if (thrown === null) return null;
      const line = typeof thrown === 'object' && 'lineNumber' in thrown ? Number(thrown.lineNumber) : undefined;
      return syntaxMessage(thrown, source, line, 0);
    });
  }

  /** Runs `body` under the deadline; an exception escaping QuickJS retires the WebAssembly module. */
  private guarded<T>(vm: Vm, body: () => T, sliceMs?: number): T {
    this.deadline = performance.now() + Math.min(sliceMs ?? Infinity, this.limits.timeoutMs);
    // a trial's scope calls run on this thread: their time is the trial's own, never added to it
    this.hostAllowance = sliceMs === undefined ? this.limits.timeoutMs : 0;
    // a trial's slice bounds the engine thread's stall: wall time; a full evaluation's limit, CPU time
    this.cpuAtStart = sliceMs === undefined ? threadCpuMs() : undefined;
    this.wallCap = performance.now() + WAIT_FACTOR * this.limits.timeoutMs;
    this.timedOut = false;
    try {
      return body();
    } catch (err) {
      this.crash(vm);
      throw crashError(err, this.limits);
    } finally {
      this.deadline = 0;
    }
  }

  /**
   * Whether the evaluation is past its time limit. The deadline is wall-clock time; once it passed,
   * a full evaluation whose thread got less CPU than its limit (it waited for a CPU) gets the rest,
   * up to `WAIT_FACTOR` times its limit in wall-clock time (a runaway script on a starved worker
   * still gives its lane back).
   */
  private pastDeadline(): boolean {
    if (this.deadline <= 0) return false;
    const now = performance.now();
    if (now <= this.deadline) return false;
    if (this.cpuAtStart === undefined || now > this.wallCap) return true;
    const used = (threadCpuMs() ?? Infinity) - this.cpuAtStart;
    const left = this.limits.timeoutMs - used;
    if (left <= 0) return true;
    this.deadline = now + left;
    return false;
  }

  /** What a guarded builtin in the VM may still run (ms); 0: the evaluation is past its limit. */
  private timeLeft(): number {
    return this.pastDeadline() ? 0 : Math.max(1, this.deadline - performance.now());
  }

  private acquire(): Vm {
    const module = currentModule();
    if (this.vm && this.vm.module !== module) this.vm = undefined;
    if (this.vm) return this.vm;
    if (!module) throw new ActError('script.error', 'the script sandbox is restarting after a crash; try again');
    this.vm = new Vm(module, {
      limits: this.limits,
      osName: hostOsName(),
      handler: this.handler,
      timeLeft: () => this.timeLeft(),
      shouldInterrupt: () => {
        if (!this.pastDeadline()) return false;
        this.timedOut = true;
        return true;
      },
    });
    return this.vm;
  }

  /** Disposes a VM that is still sound (its module is healthy). */
  private discard(vm: Vm): void {
    if (this.vm === vm) this.vm = undefined;
    try {
      vm.dispose();
    } catch {
      retireModule(vm.module);
    }
  }

  /** Drops a VM whose module memory is no longer trustworthy, without touching it again. */
  private crash(vm: Vm): void {
    if (this.vm === vm) this.vm = undefined;
    retireModule(vm.module);
  }
}

const NESTED_TOO_DEEPLY = 'source is nested too deeply';

/** A deadline already passed (0 means "no deadline"). */
const PAST = 1;

/** A compile error as checkSyntax reports it, with the line for multi-line sources. */
function syntaxMessage(thrown: unknown, source: string, line: number | undefined, offset: number): string {
  const message = thrownMessage(thrown);
  if (message === 'stack overflow') return NESTED_TOO_DEEPLY;
  if (!source.includes('\n') || line === undefined || !Number.isFinite(line)) return message;
  return `${message} (line ${Math.max(1, line - offset)})`;
}
