/**
 * RSS with N parked processes: a host with `cacheCap: 1`, one irq process holding the only slot,
 * then N more starts (parked in state `none`). Reports the host's RSS / heap before and after (after
 * a GC) and the time the N starts took.
 */
import type { StoreBackend } from '../../server/store/open-store.ts';
import { IRQ_YML } from './common.ts';
import { BenchHost } from './host-process.ts';
import { createTestDatabase } from '../../test/helpers/databases.ts';

export interface ParkedFigure {
  backend: StoreBackend;
  parked: number;
  startSecs: number;
  startsPerSec: number;
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
}

type Memory = { rss: number; heapUsed: number };

export async function measureParked(backend: StoreBackend, n: number, concurrency = 16): Promise<ParkedFigure> {
  const db = await createTestDatabase(backend);
  const host = new BenchHost(db.url, { cacheCap: 1 });
  try {
    await host.ready;
    await host.send('deploy', { source: IRQ_YML });
    await host.send('startMany', { mid: 'wait', n: 1, concurrency: 1, prefix: 'holder-' });
    const before = await host.send<Memory>('memory');
    const { startMs } = await host.send<{ startMs: number }>('startMany', { mid: 'wait', n, concurrency, prefix: 'parked-' });
    const after = await host.send<Memory>('memory');
    const parked = await host.send<number>('count', { state: 'none' });
    if (parked !== n) throw new Error(`${backend}: expected ${n} parked processes, the store holds ${parked}`);
    return {
      backend,
      parked,
      startSecs: startMs / 1000,
      startsPerSec: n / (startMs / 1000),
      rssBefore: before.rss,
      rssAfter: after.rss,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
    };
  } finally {
    await host.stop();
    await db.drop();
  }
}
