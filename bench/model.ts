/**
 * loadModel latency: parse + validate of a ~10-step model, 2,000 runs after a warm-up.
 * Run with `npx tsx bench/model.ts`; prints median and p99 in microseconds for the YAML text and
 * its JSON form, with and without the optional checks (package lookup, script syntax) of the
 * validate context. Most of the YAML figure is the `yaml` parser itself.
 */
import { loadModel, type ValidateContext } from '../server/engine/model/index.ts';

const RUNS = 2_000;
const WARMUP = 200;

function step(i: number): string {
  return `
  - id: step${i}
    name: Step ${i}
    if: amount > ${i}
    inputs:
      n${i}: '{{ amount + ${i} }}'
    outputs:
      r${i}: null
    acts:
      - id: act${i}a
        uses: acts.core.irq
        params: { to: '{{ who }}', note: 'step ${i} of {{ total }}' }
        outputs: { ok: null }
      - id: act${i}b
        uses: acts.transform.set
        params: { done${i}: true }
    timeout:
      - on: ${i + 1}m
        steps:
          - id: late${i}
            acts:
              - uses: acts.core.msg
                params: { text: late }
    catches:
      - on: e${i}
        steps:
          - id: caught${i}`;
}

const branches = `
  - id: decide
    branches:
      - id: big
        if: amount > 100
        run: $set('big', true)
        steps:
          - id: big1
            acts:
              - uses: acts.core.irq
      - id: small
        else: true
        steps:
          - id: small1
      - id: after
        needs: [big, small]
        steps:
          - id: after1
    next: step0`;

const source = `id: bench
name: Bench model
inputs: { amount: 10, who: alice, total: 3 }
inputs_schema:
  type: object
  properties:
    amount: { type: number }
  required: [amount]
outputs: { total: null }
on:
  - id: start
    uses: acts.event.manual
  - id: nightly
    uses: acts.event.schedule
    cron: '0 0 2 * * *'
setup:
  - uses: acts.core.msg
    on: created
steps:${Array.from({ length: 9 }, (_, i) => step(i)).join('')}${branches}
`;

function checkSyntax(code: string): string | null {
  try {
    new Function(code);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const PACKAGES = new Set(['acts.core.irq', 'acts.core.msg', 'acts.transform.set']);

function measure(label: string, text: string, ctx: ValidateContext | undefined): void {
  const first = loadModel(text, ctx);
  if (first.problems.length) throw new Error(`bench model has problems: ${JSON.stringify(first.problems)}`);
  for (let i = 0; i < WARMUP; i++) loadModel(text, ctx);
  const samples = new Float64Array(RUNS);
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    loadModel(text, ctx);
    samples[i] = Number(process.hrtime.bigint() - t0) / 1_000;
  }
  samples.sort();
  const at = (q: number) => samples[Math.min(RUNS - 1, Math.floor(q * RUNS))].toFixed(0);
  console.log(`${label.padEnd(36)} median ${at(0.5).padStart(5)} µs   p99 ${at(0.99).padStart(5)} µs`);
}

console.log(`loadModel, ${source.split('\n').length}-line model with 10 top-level steps, ${RUNS} runs`);
const ctx: ValidateContext = { knownPackage: (u) => PACKAGES.has(u), checkSyntax };
const json = JSON.stringify(loadModel(source).workflow);
measure('YAML: parse + validate', source, undefined);
measure('YAML: + knownPackage + checkSyntax', source, ctx);
measure('JSON: parse + validate', json, undefined);
measure('JSON: + knownPackage + checkSyntax', json, ctx);
