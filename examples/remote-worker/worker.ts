// A remote worker in 20 lines: prices the `ext.quote` acts of shipping-quote.yml (see README.md).
// Run: ACTS_URL=http://127.0.0.1:3000 ACTS_TOKEN=acts_… npx tsx examples/remote-worker/worker.ts
import { createWorker, WorkerError } from '../../worker/acts-worker.ts';

const RATES: Record<string, number> = { standard: 4.9, express: 12.5 };

const worker = createWorker({
  url: process.env.ACTS_URL ?? 'http://127.0.0.1:3000',
  token: process.env.ACTS_TOKEN ?? '',
  packages: ['ext.quote'],
  concurrency: 4,
  handler: ({ params }) => {
    const { speed, kg } = params as { speed: string; kg: number };
    const rate = RATES[speed];
    if (rate === undefined) throw new WorkerError('no_rate', `there is no rate for '${speed}' shipping`);
    return { price: Math.round(rate * kg * 100) / 100 };
  },
});
worker.start();
process.once('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
