/**
 * Whether a step test's result meets its case's expectations (vocab/step-tests.ts). Without an
 * expected `error` the run must have completed; with one, the run must have ended in error with
 * that code. `outputs` and `vars` are subsets: each named key must be there with an equal value
 * (deep, JSON-like equality); other keys may be there too. `state` is the node task's end state.
 */
import { isDeepStrictEqual } from 'node:util';
import type { StepTestCase, StepTestResult, StepTestVerdict } from '../../../vocab/step-tests.ts';

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

function subsetFailures(what: string, expected: Record<string, unknown> | undefined, actual: Record<string, unknown>): string[] {
  if (!expected) return [];
  return Object.entries(expected)
    .filter(([key, value]) => !isDeepStrictEqual(actual[key], value))
    .map(([key, value]) => `${what} '${key}' is ${shown(actual[key])}, expected ${shown(value)}`);
}

function endFailures(test: StepTestCase, result: StepTestResult): string[] {
  const expected = test.expect?.error;
  if (result.end === 'invalid' || result.end === 'timeout' || result.end === 'waiting') return [result.error?.message ?? `the run ended ${result.end}`];
  if (expected === undefined) return result.end === 'error' ? [`the node failed: ${result.error?.ecode ?? ''}: ${result.error?.message ?? ''}`] : [];
  if (result.end !== 'error') return [`expected the error '${expected}', but the node ended ${result.state}`];
  return result.error?.ecode === expected ? [] : [`expected the error '${expected}', got '${result.error?.ecode ?? ''}': ${result.error?.message ?? ''}`];
}

export function verdictOf(test: StepTestCase, result: StepTestResult): StepTestVerdict {
  const failures = [...endFailures(test, result)];
  const { state } = test.expect ?? {};
  if (state !== undefined && state !== result.state) failures.push(`the node ended ${result.state}, expected ${state}`);
  failures.push(...subsetFailures('output', test.expect?.outputs, result.outputs));
  failures.push(...subsetFailures('variable', test.expect?.vars, result.vars));
  return { ...result, name: test.name, pass: failures.length === 0, failures };
}
