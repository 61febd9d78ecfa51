/** Package definitions (spec 1.9): metadata published to the store plus, for `func`, the code. */
import type { Act, JsonSchema, Vars } from '../model/types.ts';
import type { HttpRequest, HttpResponse } from './http-types.ts';
import type { ShellResult, ShellScript } from './shell-types.ts';
import type { StateOp } from './state-types.ts';

/**
 * How an act of the package runs: `irq` waits for a client action (a person, the inbox), `msg`
 * notifies and goes on, `func` runs built-in code, `worker` (an external package) waits like an
 * interrupt — in `interrupted`, out of the inbox — until a remote worker completes or fails it.
 */
export type RunAs = 'irq' | 'msg' | 'func' | 'worker';
export type Catalog = 'core' | 'event' | 'transform' | 'form' | 'ai' | 'app';

export interface PackageMeta {
  name: string;
  desc: string;
  icon: string;
  doc: string;
  version: string;
  /** JSON Schema of the (evaluated) params. */
  schema: JsonSchema;
  run_as: RunAs;
  resources: unknown;
  catalog: Catalog;
  /**
   * The act runs with the values of the secrets its params read (`{{ secrets.NAME }}`): what it
   * writes and its errors are redacted. Other packages see `***` in their place.
   */
  secrets?: true;
}

/** What a func package may do to the act that runs it. */
export interface FuncContext {
  /** Evaluated params (validated against the schema). */
  params: unknown;
  /** Writes vars into the act's data (propagating to owning ancestors). */
  setVars(vars: Vars): void;
  /** Marks keys as act outputs (acts.transform.set). */
  markOutputs(keys: string[]): void;
  /**
   * Runs JS in the act's scope and hands its result to `apply`: at once, or — with code workers —
   * in a later job of the process, the act held open (and its lane held) until then. A script
   * error fails the act either way.
   */
  runCode(source: string, mode: 'script' | 'function', apply: (result: unknown) => void): void;
  /**
   * Sends an HTTP request (acts.core.http) with the engine's client, off the lane: the act is held
   * open while the process's other work and the other processes go on; once the answer came,
   * `apply` runs in a later job of the process (a throw, or a failed call, fails the act).
   */
  callHttp(request: HttpRequest, apply: (response: HttpResponse) => void): void;
  /**
   * Runs a script (acts.app.shell) with the engine's shell runner in the process's directory, off
   * the lane as `callHttp` does; once it exited, `apply` runs in a later job of the process.
   */
  runShell(script: ShellScript, apply: (result: ShellResult) => void): void;
  /**
   * Gets or sets a value of the process (acts.app.state) with the engine's state keeper, off the
   * lane as `callHttp` does; once done, `apply` runs in a later job of the process with the value
   * (GET) or undefined (SET).
   */
  keepState(op: StateOp, apply: (value: unknown) => void): void;
  /**
   * Appends child acts under the act (block expansion): `sequence` chains them, `parallel` starts
   * them together. Each child inherits the act's options (spec 1.9.2).
   */
  expand(acts: Act[], mode: 'sequence' | 'parallel'): void;
  /** The act waits for an explicit action instead of completing after `run`. */
  holdCompletion(): void;
  /** Starts a child process; its end is reported back to this act (spec 2.7). */
  startSubflow(mid: string, options: Vars): void;
  /** Escalates the open interrupt above the act (acts.core.escalate, in its timeout steps: escalation.ts). */
  escalateOwner(params: EscalateParams): void;
  /** Applies a client action to the act's parent task (acts.core.action). */
  actOnParent(action: string, options: Vars): void;
}

/** The params of an `acts.core.escalate` act (params-schemas.ts ESCALATE_PARAMS; engine escalation.ts). */
export interface EscalateParams {
  assignee?: string | null;
  candidate_users?: string[] | string | null;
  candidate_groups?: string[] | string | null;
  roles?: string[] | string | null;
  priority?: number | null;
  reason?: string | null;
}

export interface FuncPackage extends PackageMeta {
  run_as: 'func';
  run(ctx: FuncContext): void;
  /**
   * The action `run` applies to the act's parent (`actOnParent`), read from its params before it
   * runs: the outputs of what the action closes are evaluated ahead (closing.ts).
   */
  parentAction?(params: unknown): { action: string; options: Vars };
  /**
   * What every run would find wrong with params that fit the schema (deploy reports it): checked
   * on the params as written, `decided(pointer)` false for a value a template decides at run time.
   * Null when nothing is known wrong.
   */
  paramsProblem?(params: unknown, decided: (pointer: string) => boolean): string | null;
}

export type PackageDef = PackageMeta | FuncPackage;

export function isFunc(pkg: PackageDef): pkg is FuncPackage {
  return pkg.run_as === 'func' && typeof (pkg as FuncPackage).run === 'function';
}
