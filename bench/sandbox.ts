/**
 * Sandbox latency: 10,000 evaluations of a few representative expressions after a warm-up, with a
 * scope of a few variables over plain maps. Run with `npx tsx bench/sandbox.ts`; prints median and
 * p99 in microseconds per expression.
 */
import { createSandbox } from '../server/engine/sandbox/quickjs.ts';
import { varsScope } from '../server/engine/sandbox/vars-scope.ts';

const RUNS = 10_000;
const WARMUP = 1_000;

const vars: Record<string, unknown> = {
  a: 41,
  name: 'order-17',
  amount: 250.5,
  items: ['x', 'y', 'z'],
  customer: { id: 7, tier: 'gold', tags: ['new'] },
};

const scope = varsScope(vars);

const cases: Array<[string, string, 'script' | 'function']> = [
  ['a + 1', 'a + 1', 'script'],
  ['comparison', 'amount > 100 && customer.tier === "gold"', 'script'],
  ['template string', '`${name}: ${items.length} items`', 'script'],
  ['object result', '({ id: customer.id, total: amount * 2 })', 'script'],
  ['statements', 'let t = 0; for (const i of items) t += i.length; t', 'script'],
  ['$get + Math', 'Math.max($get("a"), 10)', 'script'],
  ['function mode', 'const x = a * 2; return { x };', 'function'],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const sandbox = await createSandbox();
console.log(`${RUNS} evaluations per case after ${WARMUP} warm-up runs (µs)`);
console.log('case'.padEnd(18), 'median'.padStart(8), 'p99'.padStart(8));
for (const [label, source, mode] of cases) {
  for (let i = 0; i < WARMUP; i++) sandbox.evaluate(source, scope, mode);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    sandbox.evaluate(source, scope, mode);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((x, y) => x - y);
  console.log(label.padEnd(18), percentile(times, 50).toFixed(1).padStart(8), percentile(times, 99).toFixed(1).padStart(8));
}
sandbox.close();
