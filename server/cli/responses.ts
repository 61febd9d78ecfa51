/**
 * The responses file of `acts run`: answers to interrupts, by act key. A list answers the 1st,
 * 2nd, … created message of that key; its last entry repeats. A single entry answers every time.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { InputError } from './errors.ts';

const response = z.object({
  action: z.string().min(1),
  options: z.record(z.string(), z.unknown()).optional(),
});
const file = z.record(z.string(), z.union([response, z.array(response).min(1)]));

export type Response = z.infer<typeof response>;

export class Responder {
  private readonly seen = new Map<string, number>();

  constructor(private readonly answers: Record<string, Response | Response[]>) {}

  static parse(text: string, path: string): Responder {
    let raw: unknown;
    try {
      raw = parse(text) ?? {};
    } catch (err) {
      throw new InputError(`responses file '${path}' is not valid YAML: ${(err as Error).message.split('\n')[0].replace(/:$/, '')}`);
    }
    const result = file.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new InputError(
        `responses file '${path}': ${issue.path.join('.') || 'document'}: expected { action, options } or a list of them (${issue.message})`,
      );
    }
    return new Responder(result.data);
  }

  /** The answer to the next created message of `key`, or undefined when there is none. */
  next(key: string): Response | undefined {
    const entry = this.answers[key];
    if (!entry) return undefined;
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    if (!Array.isArray(entry)) return entry;
    return entry[Math.min(n, entry.length - 1)];
  }
}
