/**
 * Runs every saved step test of a model source (cases.ts), one after the other, each on its own
 * throw-away engine (sandbox-run.ts), and judges each (verdict.ts). `onVerdict` hears each as it
 * is known (the CLI prints it at once). With `totalMs` the cases share that much wall-clock time:
 * a case gets at most what is left, and cases after it is used up fail without running.
 */
import { STEP_TEST_LIMITS, type StepTestCase, type StepTestResult, type StepTestVerdict } from '../../../vocab/step-tests.ts';
import { readCases } from './cases.ts';
import { runOneNode, type SandboxOptions } from './sandbox-run.ts';
import { verdictOf } from './verdict.ts';

export interface CasesOptions extends SandboxOptions {
  /** Wall-clock time all cases together may take (ms; default: no bound but each case's own). */
  totalMs?: number;
}

function notRun(test: StepTestCase, totalMs: number): StepTestResult {
  const message = `not run: the saved step tests used up their time limit of ${totalMs} ms together`;
  return { node: test.node, kind: 'step', end: 'timeout', state: 'none', outputs: {}, vars: {}, error: { ecode: 'steptest.timeout', message }, messages: [], waiting: [], ms: 0 };
}

export async function runCases(source: string, options: CasesOptions = {}, onVerdict?: (v: StepTestVerdict) => void): Promise<StepTestVerdict[]> {
  const { totalMs, ...each } = options;
  const deadline = totalMs === undefined ? Infinity : Date.now() + totalMs;
  const verdicts: StepTestVerdict[] = [];
  for (const test of readCases(source)) {
    const left = deadline - Date.now();
    const result = left <= 0 ? notRun(test, totalMs!) : await runOneNode(source, test, { ...each, limitMs: Math.min(each.limitMs ?? STEP_TEST_LIMITS.defaultMs, left) });
    const verdict = verdictOf(test, result);
    verdicts.push(verdict);
    onVerdict?.(verdict);
  }
  return verdicts;
}
