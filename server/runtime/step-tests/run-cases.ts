/**
 * Runs every saved step test of a model source (cases.ts), one after the other, each on its own
 * throw-away engine (sandbox-run.ts), and judges each (verdict.ts). `onVerdict` hears each as it
 * is known (the CLI prints it at once).
 */
import type { StepTestVerdict } from '../../../vocab/step-tests.ts';
import { readCases } from './cases.ts';
import { runOneNode, type SandboxOptions } from './sandbox-run.ts';
import { verdictOf } from './verdict.ts';

export async function runCases(source: string, options: SandboxOptions = {}, onVerdict?: (v: StepTestVerdict) => void): Promise<StepTestVerdict[]> {
  const verdicts: StepTestVerdict[] = [];
  for (const test of readCases(source)) {
    const verdict = verdictOf(test, await runOneNode(source, test, options));
    verdicts.push(verdict);
    onVerdict?.(verdict);
  }
  return verdicts;
}
