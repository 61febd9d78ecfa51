/** Timing helpers for benchmarks: run a body N times and report median and p99 in µs. */
export interface Figure {
  name: string;
  runs: number;
  medianUs: number;
  p99Us: number;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

/** `body` returns the elapsed time of the measured part in ms (so setup can stay outside it). */
export async function measure(name: string, runs: number, body: (i: number) => Promise<number> | number): Promise<Figure> {
  const warmup = Math.min(200, Math.ceil(runs / 5));
  for (let i = 0; i < warmup; i++) await body(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await body(i));
  times.sort((a, b) => a - b);
  return { name, runs, medianUs: percentile(times, 0.5) * 1000, p99Us: percentile(times, 0.99) * 1000 };
}

export function printTable(figures: Figure[]): void {
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`${pad('benchmark', 44)} ${pad('runs', 6)} ${pad('median µs', 12)} p99 µs`);
  for (const f of figures) {
    console.log(`${pad(f.name, 44)} ${pad(String(f.runs), 6)} ${pad(f.medianUs.toFixed(1), 12)} ${f.p99Us.toFixed(1)}`);
  }
}
