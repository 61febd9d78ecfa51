/**
 * Reading processes for the facade (engine.ts): a resident process as it is in memory, any other
 * (finished, parked, or run by another instance) rebuilt from its rows; and waiting for a
 * process's end — heard from this engine, or, when it runs on another instance, seen in the store
 * (polled every WAIT_POLL_MS). Holds no state beyond the waits in flight.
 */
import { ActError } from '../engine/errors.ts';
import type { Process } from '../engine/process.ts';
import type { Runtime } from './runtime-types.ts';
import { procInfo, type ProcInfo } from './info.ts';
import type { Models } from './models.ts';
import { load } from './recover.ts';
import { multiInstance } from './relay-records.ts';

/** How often a wait looks at a process that runs on another instance, ms. */
const WAIT_POLL_MS = 200;

export class ProcessReader {
  constructor(
    private readonly rt: Runtime,
    private readonly models: Models,
    private readonly isClosed: () => boolean,
  ) {}

  /** A resident process, or a snapshot rebuilt from the store. */
  async loaded(pid: string): Promise<Process> {
    const proc = this.rt.procs.get(pid);
    if (proc) return proc;
    await this.rt.writer.flush();
    const row = await this.rt.store.procs.find(pid);
    if (!row) throw new ActError('process.not_found', `cannot find process '${pid}'`);
    return load(this.rt, this.models, row);
  }

  /** Resolves when the process reached a terminal state. */
  finished(pid: string): Promise<ProcInfo> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (info: ProcInfo) => {
        off();
        clearTimeout(timer);
        resolve(info);
      };
      const off = this.rt.events.on('finished', ({ proc }) => {
        if (proc.pid === pid) done(procInfo(proc));
      });
      const poll = async (): Promise<void> => {
        try {
          if (this.isClosed()) throw new ActError('engine.closed', 'the engine is closed');
          const proc = await this.loaded(pid);
          if (proc.finished) return done(procInfo(proc));
          if (multiInstance(this.rt.store) && !this.rt.procs.has(pid)) timer = setTimeout(() => void poll(), WAIT_POLL_MS);
        } catch (err) {
          off();
          reject(err);
        }
      };
      void poll();
    });
  }
}
