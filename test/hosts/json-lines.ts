/**
 * The host side of the JSON-lines protocol shared by the test and benchmark engine hosts: one
 * command per stdin line `{id, cmd, …}`, one reply per stdout line `{id, ok, result | error}`;
 * other stdout lines (ready, messages) are the host's own.
 */
import { createInterface } from 'node:readline';

export type Command = { id: number; cmd: string; [k: string]: unknown };

export const writeLine = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

/** Answers commands from stdin until it closes, one at a time. */
export async function serveCommands(run: (command: Command) => Promise<unknown>): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as Command;
    try {
      writeLine({ id: c.id, ok: true, result: (await run(c)) ?? null });
    } catch (err) {
      writeLine({ id: c.id, ok: false, error: (err as Error).message });
    }
  }
}
