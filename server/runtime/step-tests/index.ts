/** Step tests: one node of a model run alone on a throw-away engine (docs/step-tests.md). */
export { readCases, caseSchema, expectSchema, runInputFields, formatCaseProblem, type CaseProblem } from './cases.ts';
export { runOneNode, type SandboxOptions } from './sandbox-run.ts';
export { verdictOf } from './verdict.ts';
export { runCases, type CasesOptions } from './run-cases.ts';
export { subflowTargets, type ModelSource } from './child-models.ts';
