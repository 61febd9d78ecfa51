/**
 * `acts run`: runs one workflow to its end on an in-memory engine and prints one JSON line per
 * message, in emission order, then a final line. Interrupts are answered from a responses file.
 * Time is virtual: when nothing is left to do but a timeout, the clock jumps to it. Shell and
 * state acts follow the configuration (acts.config.json, then ACTS_SHELL_* and ACTS_STATE_*).
 */
import { ManualClock } from '../engine/clock.ts';
import { Engine } from '../runtime/engine.ts';
import { ActError } from '../engine/errors.ts';
import type { Message } from '../engine/messages.ts';
import { formatProblem } from '../engine/model/index.ts';
import type { ModelProblem } from '../engine/model/types.ts';
import { EXIT, InputError } from './errors.ts';
import { parseInputs, readText } from './files.ts';
import { Responder } from './responses.ts';
import { openStore } from '../store/open-store.ts';
import { openSecrets } from '../secrets/index.ts';
import { loadConfig } from '../runtime/config.ts';
import { engineOptionsFrom } from '../runtime/engine-options.ts';
import { isTerminalName } from '../../vocab/states.ts';

export interface RunOptions {
  model: string[];
  store?: string;
  inputs?: string;
  respond?: string;
}

type Print = (line: string) => void;

function messageLine(m: Message): string {
  const { type, state, key, name, nid, pid, tid, uses, tag, inputs, outputs } = m;
  return JSON.stringify({ type, state, key, name, nid, pid, tid, uses, tag, inputs, outputs });
}

async function deploy(engine: Engine, source: string, file: string): Promise<string> {
  try {
    return (await engine.models.deploy(source)).id;
  } catch (err) {
    if (ActError.is(err) && err.code === 'model.invalid' && Array.isArray(err.details) && err.details.length > 0) {
      // One line on stderr (the contract): the first problem, and where to see the others.
      const problems = err.details as ModelProblem[];
      const more = problems.length - 1;
      const rest = more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'}: acts validate ${file})` : '';
      throw new InputError(`${formatProblem(problems[0], file)}${rest}`);
    }
    throw err;
  }
}

export async function runCommand(file: string, options: RunOptions, print: Print, warn: Print): Promise<number> {
  const source = await readText(file, 'model file');
  const extras = await Promise.all(options.model.map(async (f) => ({ file: f, source: await readText(f, 'model file') })));
  const inputs = parseInputs(options.inputs);
  const responder = options.respond
    ? Responder.parse(await readText(options.respond, 'responses file'), options.respond)
    : new Responder({});

  const clock = new ManualClock(Date.now());
  const store = options.store ? await openStore(options.store) : undefined;
  // the shell and state acts as the configuration says (ACTS_SHELL_ENABLE, ACTS_STATE_REDIS_URL …)
  const { shell, state } = engineOptionsFrom(loadConfig());
  // A run is one-shot: other unfinished processes of a shared store are not its business.
  // `{{ secrets.NAME }}` reads the store's secrets (ACTS_SECRETS_KEY); a run without a store has none
  const secrets = store ? await openSecrets(store) : undefined;
  const engine = await Engine.create({ clock, autoTick: false, store, recover: false, shell, state, secrets });
  try {
    for (const extra of extras) await deploy(engine, extra.source, extra.file);
    const mid = await deploy(engine, source, file);
    const pids: string[] = [];
    // Answers wait until the engine is idle, as an operator acts after the system settled.
    const answers: Array<{ message: Message; action: string; options: Record<string, unknown> }> = [];
    engine.on('message', (m) => {
      if (!pids.includes(m.pid)) pids.push(m.pid);
      print(messageLine(m));
      if (m.type !== 'act' || m.state !== 'created') return;
      const answer = responder.next(m.key);
      if (answer) answers.push({ message: m, action: answer.action, options: answer.options ?? {} });
    });
    let proc;
    try {
      proc = await engine.procs.start(mid, inputs);
    } catch (err) {
      if (ActError.is(err) && (err.code === 'inputs.invalid' || err.code === 'model.not_found')) throw new InputError(err.message);
      throw err;
    }
    for (;;) {
      await engine.idle();
      const answer = answers.shift();
      if (answer) {
        const { message: m, action } = answer;
        await engine.do({ pid: m.pid, tid: m.tid, action, options: answer.options }).catch((err) => {
          warn(`acts run: the response to '${m.key}' (${action}) was refused: ${(err as Error).message}`);
        });
        continue;
      }
      const detail = await engine.procs.get(proc.pid);
      if (!isTerminalName(detail.state)) {
        const due = engine.nextTimeoutAt();
        if (due !== null) {
          clock.set(Math.max(clock.now(), due));
          await engine.tick();
          continue;
        }
        const tasks = [];
        for (const pid of pids) {
          for (const t of await engine.tasks.list(pid)) {
            if (t.kind === 'act' && t.state === 'interrupted') tasks.push({ key: t.key, tid: t.tid, nid: t.nid, pid: t.pid });
          }
        }
        print(JSON.stringify({ event: 'waiting', state: detail.state, outputs: detail.outputs, error: detail.err, tasks }));
        return EXIT.waiting;
      }
      const failed = detail.state === 'error';
      print(JSON.stringify({ event: failed ? 'error' : 'complete', state: detail.state, outputs: detail.outputs, error: detail.err }));
      return failed ? EXIT.processError : EXIT.complete;
    }
  } finally {
    await engine.close();
  }
}
