/**
 * Typed workflow model (spec 1.2–1.5). Produced by `parseModel` from YAML or JSON; every field has
 * a default so the engine never sees `undefined` for a list or a map.
 */

export type Vars = Record<string, unknown>;

/** A JSON-Schema object (validated with ajv). */
export type JsonSchema = Record<string, unknown>;

/** Fields shared by every node of the tree. */
export interface NodeBase {
  id: string;
  name: string;
  desc: string;
  tag: string;
}

export interface Workflow extends NodeBase {
  /** Model version; overwritten from the store when a model is loaded. */
  ver: number;
  /** Input names → default values; start options are merged on top (section 0.18). */
  inputs: Vars;
  /** Optional JSON Schema validated against the merged inputs at start. */
  inputs_schema?: JsonSchema;
  /** Keys returned as process outputs (`null` = variable of that name, `'{{ e }}'` = evaluated). */
  outputs: Vars;
  /** Optional JSON Schema the final outputs must satisfy. */
  exposes?: JsonSchema;
  /**
   * An act that fails with no catch to handle it holds the process as an incident for an operator
   * (engine/control.ts) instead of failing it; unset: the server's `incidents` setting.
   */
  incidents?: boolean;
  /** Process-local environment; reserved key `expose` lists the default output keys. */
  env: Vars;
  setup: Act[];
  on: Trigger[];
  steps: Step[];
}

export interface Step extends NodeBase {
  if?: string;
  inputs: Vars;
  outputs: Vars;
  acts: Act[];
  branches: Branch[];
  /** Step id to continue with after this step (any step of the model). */
  next?: string;
  catches: Catch[];
  timeout: Timeout[];
  setup: Act[];
}

export interface Branch extends NodeBase {
  if?: string;
  else: boolean;
  /** Sibling branch ids; the branch waits until all of them are terminal. */
  needs: string[];
  /** JS statements evaluated when the branch starts running. */
  run?: string;
  inputs: Vars;
  outputs: Vars;
  steps: Step[];
}

/** Lifecycle points a setup act may hook (spec 2.8). */
import type { HookEvent } from '../../../vocab/hook-events.ts';
export { HOOK_EVENTS, type HookEvent } from '../../../vocab/hook-events.ts';

export interface Act extends NodeBase {
  uses: string;
  /** Business key echoed in messages; defaults to the act id. */
  key: string;
  params: unknown;
  options: Vars;
  inputs: Vars;
  outputs: Vars;
  if?: string;
  on?: HookEvent;
  setup: Act[];
  catches: Catch[];
  timeout: Timeout[];
}

export interface Catch {
  /** Error code to match; absent = catch every error. */
  on?: string;
  steps: Step[];
}

export interface Timeout {
  /** `<integer><s|m|h|d>`, e.g. `2s`, `5m`. */
  on: string;
  steps: Step[];
}

export interface Trigger {
  id: string;
  name: string;
  desc: string;
  tag: string;
  /** `acts.event.manual|hook|chat|schedule`. */
  uses: string;
  /** Default params (start inputs) of the trigger. */
  params: unknown;
  /** 6-field cron (`sec min hour day month weekday`); required for `acts.event.schedule`. */
  cron?: string;
  /** IANA timezone of the cron; defaults to the server's. */
  timezone?: string;
}

export type { ModelProblem, SourcePosition } from '../../../vocab/model-problems.ts';
