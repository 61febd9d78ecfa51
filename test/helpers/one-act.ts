/**
 * A model of one act of a package, then a msg act `after` that runs only after it — the scene of
 * the package tests (http, shell): deploy it, start it, and read how the act ended.
 */
import type { Vars } from '../../server/engine/model/types.ts';
import type { TaskInfo } from '../../server/runtime/info.ts';
import type { Harness } from './harness.ts';

export interface OneAct {
  /** The model's id. */
  mid: string;
  uses: string;
  key: string;
  /** The model's `inputs` (a YAML flow map). */
  inputs: string;
}

/** The model, the act's `params` a YAML flow map and `extra` more YAML under the act (catches…). */
export function oneActModel(spec: OneAct, params: string, extra = ''): string {
  return `
id: ${spec.mid}
inputs: ${spec.inputs}
steps:
  - id: s1
    acts:
      - uses: ${spec.uses}
        key: ${spec.key}
        params: ${params}${extra}
  - id: s2
    acts: [ { uses: acts.core.msg, key: after } ]
`;
}

export interface OneActRun {
  pid: string;
  state: string;
  act: TaskInfo;
  err: { ecode: string; message: string } | null;
}

/** Deploys the model, starts it with `inputs`, waits until the engine is idle and reads the act. */
export async function runOneAct(h: Harness, spec: OneAct, params: string, extra = '', inputs: Vars = {}): Promise<OneActRun> {
  await h.deploy(oneActModel(spec, params, extra));
  const pid = await h.start(spec.mid, inputs);
  const detail = await h.proc(pid);
  const act = detail.tasks.find((t) => t.uses === spec.uses);
  if (!act) throw new Error(`no ${spec.uses} act ran`);
  return { pid, state: detail.state, act, err: act.err };
}
