/**
 * `acts start <model-id>`: starts a process on the server and prints it (one JSON line; with
 * `--idempotency-key` a repeat prints the first process, `"repeated":true`). With `--wait` it then
 * waits for the end and exits like `acts run` (see wait.ts).
 */
import { EXIT } from '../errors.ts';
import { seconds, type ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';
import { mergeValues } from './values.ts';
import { waitForEnd } from './wait.ts';

export interface StartFlags extends ConnectionFlags {
  inputs?: string;
  input: string[];
  idempotencyKey?: string;
  wait?: boolean;
  waitTimeout?: string;
}

/** Runs `acts start`; returns the exit code. */
export function startCommand(mid: string, flags: StartFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client, connection }) => {
    const inputs = mergeValues(flags.inputs, flags.input, { json: '--inputs', pair: '--input' });
    if (flags.waitTimeout !== undefined && !flags.wait) throw usage('--wait-timeout only applies together with --wait');
    const timeoutMs = flags.waitTimeout === undefined ? undefined : seconds(flags.waitTimeout, '--wait-timeout') * 1000;
    const proc = await client.processes.start.mutate({ mid, inputs, idempotencyKey: flags.idempotencyKey });
    io.out(JSON.stringify(proc));
    if (!flags.wait) return EXIT.complete;
    return waitForEnd(client, connection, proc.pid, io.out, { timeoutMs });
  });
}
