/** Reading the files the CLI is given, with errors a person can act on. */
import { readFile } from 'node:fs/promises';
import { InputError } from './errors.ts';

export async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(`${what} '${path}' does not exist`);
    if (code === 'EISDIR') throw new InputError(`${what} '${path}' is a directory, not a file`);
    throw new InputError(`cannot read ${what} '${path}': ${(err as Error).message}`);
  }
}

export function parseInputs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`--inputs is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError('--inputs must be a JSON object, e.g. --inputs \'{"amount": 10}\'');
  }
  return value as Record<string, unknown>;
}
