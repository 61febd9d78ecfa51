/**
 * Regression cases of the simulation: a failing seed, frozen. A case keeps the models and the
 * client's stimuli themselves (tasks named by their place, never by generated ids), so it replays
 * the same scenario after the generator or the actor change; `npm run sim -- --seed N --save
 * <name>` writes one into test/sim/regressions/, and test/sim.test.ts replays them all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { Vars } from '../../server/engine/model/types.ts';
import type { Stimulus } from './actor.ts';

export interface Limits {
  cacheCap: number;
  schedulerWorkers: number;
  schedulerQueueCap: number;
  /** Code worker threads (absent: none, code runs on the engine's thread). */
  codeWorkers?: number;
  /** Uncaught act failures hold their process as incidents (engine/control.ts); absent: off. */
  incidents?: boolean;
  /**
   * Jobs a lane drain pass runs before it yields (lanes.ts); absent: the engine's choice, 256 on
   * the simulation's stores, which write on the engine's thread. The shorter pass of a store with
   * a write thread (32) groups turns into batches differently, so the seeds run both.
   */
  lanePassJobs?: number;
}

/** One stimulus as a case stores it. */
export type ScriptStep =
  | { start: string; mid: string; inputs: Vars }
  /** Let time pass to this many ms after the simulation's epoch, then tick. */
  | { time: number }
  /** Deploy this source of model `deploy` as its next version. */
  | { deploy: string; source: string }
  | { action: string; proc: string; place: string; state: string; options: Vars };

export interface Regression {
  name: string;
  /** What went wrong and what fixed it. */
  note: string;
  /** The seed that found it, with the generator of its day. */
  seed: number;
  store: 'memory' | 'sqlite';
  crashAfterWrites?: number;
  limits: Limits;
  models: string[];
  script: ScriptStep[];
}

/** The clock every simulation starts from (epoch ms). */
export const SIM_EPOCH = 1_700_000_000_000;

export const REGRESSIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'regressions');

export function toScriptStep(s: Stimulus): ScriptStep {
  if (s.kind === 'start') return { start: s.pid, mid: s.mid, inputs: s.inputs };
  if (s.kind === 'time') return { time: s.to - SIM_EPOCH };
  if (s.kind === 'deploy') return { deploy: s.mid, source: s.source };
  return { action: s.action, proc: s.proc, place: s.place, state: s.state, options: s.options };
}

export function writeRegression(regression: Regression, dir = REGRESSIONS_DIR): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${regression.name}.yml`);
  fs.writeFileSync(file, YAML.stringify(regression, { lineWidth: 0 }));
  return file;
}

export function readRegression(file: string): Regression {
  const data = YAML.parse(fs.readFileSync(file, 'utf8')) as Regression;
  if (!data || !Array.isArray(data.models) || !Array.isArray(data.script)) throw new Error(`${file} is not a simulation regression case`);
  return data;
}

/** Every stored case, by file name. */
export function allRegressions(dir = REGRESSIONS_DIR): Array<{ file: string; regression: Regression }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort()
    .map((f) => ({ file: path.join(dir, f), regression: readRegression(path.join(dir, f)) }));
}
