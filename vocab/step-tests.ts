/**
 * Step tests (docs/step-tests.md): one step or act of a model run alone in a throw-away in-memory
 * engine with given inputs, its interrupts answered from the case. The shapes shared by the runner
 * (server/runtime/step-tests), the API (`stepTests.*`), `acts test` and the designer's panels.
 *
 * A saved case lives in the model document's top-level `tests:` list (the model parser ignores the
 * field, so it rides along with every version, draft and file):
 *
 *   tests:
 *     - name: manager approves
 *       node: manager                 # id of a step or act (or an act's key)
 *       inputs: { amount: 120 }       # the variables the node sees (start inputs of the test run)
 *       answers:                      # interrupts, by act id or key: one answer or a list in order
 *         manager_approve: { action: complete, options: { approved_by: bob } }
 *       expect:                       # all optional; without `error` the node must complete
 *         outputs: { approved_by: bob }   # a subset of the node's outputs
 *         vars: { approved_by: bob }      # a subset of the process variables at the end
 *         state: completed                # the node task's end state
 *         error: some.code                # the node (or the run) must end with this error code ('' : a script's throw, no code)
 */

/** The model document's field that holds the saved cases. */
export const TESTS_FIELD = 'tests';

export const STEP_TEST_LIMITS = {
  /** Saved cases of one model. */
  cases: 50,
  /** A case's name. */
  nameChars: 200,
  /** Wall-clock time one case may run (ms), by default and at most. */
  defaultMs: 10_000,
  maxMs: 30_000,
  /** Tasks one test run may create (its step budget). */
  stepBudget: 2_000,
  /** Message lines kept of one run. */
  messages: 200,
  /** Answers given to one run. */
  answers: 200,
} as const;

/** Client actions an answer may give an interrupted act (the engine's names, tasks.* in the API). */
export const ANSWER_ACTIONS = ['complete', 'submit', 'back', 'cancel', 'skip', 'error', 'abort', 'outcome'] as const;
export type AnswerAction = (typeof ANSWER_ACTIONS)[number];

export interface StepTestAnswer {
  /** Default `complete`. */
  action?: AnswerAction;
  options?: Record<string, unknown>;
}

export interface StepTestExpect {
  outputs?: Record<string, unknown>;
  vars?: Record<string, unknown>;
  state?: string;
  error?: string;
}

/** What to run: the node and what it is given. */
export interface StepTestInput {
  node: string;
  inputs?: Record<string, unknown>;
  /** By act id or key: one answer, or a list used in the order the act's tasks wait. */
  answers?: Record<string, StepTestAnswer | StepTestAnswer[]>;
}

export interface StepTestCase extends StepTestInput {
  name: string;
  expect?: StepTestExpect;
}

/**
 * How a run ended: `completed` (the node reached a terminal state other than error), `error`,
 * `waiting` (an act waits for an answer the run was not given), `timeout` (the wall-clock limit;
 * the step budget ends the run in `error`, `process.step_budget`), `invalid` (the node cannot be
 * run: unknown id, a model problem).
 */
export const RUN_ENDS = ['completed', 'error', 'waiting', 'timeout', 'invalid'] as const;
export type RunEnd = (typeof RUN_ENDS)[number];

/** An act that waits for an answer when the run stopped. */
export interface WaitingAct {
  /** The act's id (answers name it, or its key). */
  node: string;
  key: string;
  tid: string;
  uses: string;
  /** Its evaluated params (the interrupt's title, schema, outcomes …). */
  params: unknown;
}

export interface StepTestMessage {
  type: string;
  state: string;
  key: string;
  nid: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

export interface StepTestResult {
  node: string;
  kind: 'step' | 'act';
  end: RunEnd;
  /** The node task's state at the end (`none` when it never ran). */
  state: string;
  /** The node task's outputs. */
  outputs: Record<string, unknown>;
  /** The process variables at the end (the test run's root data). */
  vars: Record<string, unknown>;
  error: { ecode: string; message: string } | null;
  messages: StepTestMessage[];
  waiting: WaitingAct[];
  ms: number;
}

export interface StepTestVerdict extends StepTestResult {
  name: string;
  pass: boolean;
  /** Why it failed, one sentence each. */
  failures: string[];
}
