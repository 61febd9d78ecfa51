/** The workflow model: types, parsing (YAML/JSON) and deploy-time validation. */
export * from './types.ts';
export { parseModel, type ParseOptions, type ParseResult } from './parse.ts';
export { loadModel } from './load.ts';
export { validateWorkflow } from './validate.ts';
export { loopWarnings } from './loop-warnings.ts';
export type { ValidateContext } from './validate-context.ts';
export { formatProblem } from './format.ts';
export { PROBLEM_CODES, type ProblemCode } from '../../../vocab/model-problems.ts';
export { newId, seededIds, ID_ALPHABET, NODE_ID_LENGTH, WORKFLOW_ID_LENGTH, type IdSource } from './ids.ts';
export { parseDuration } from './duration.ts';
export { nextCronRun, cronProblem, isValidTimezone } from './cron.ts';
export { TRIGGER_PACKAGES, SCHEDULE_TRIGGER } from './validate-triggers.ts';
export { templatesIn } from './templates.ts';
export { walkWorkflow, type WorkflowVisitor, type ActPlace } from './walk.ts';
export { formatPath, parsePath, joinPath, type PathSegment } from './paths.ts';
export type { Locate } from './locate.ts';
