/**
 * Every input problem a person may see is a sentence about their input that names the field,
 * with the stable code beside it (issue 17 item 10): zod's own texts ("Too small: expected string
 * to have >=1 characters") never reach a client; a schema's own text is kept, as a sentence. Over
 * real HTTP (the API's one error formatter, server/api/errors.ts), plus the sentences of nested fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSentence } from '../server/api/issue-sentences.ts';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** The error of a call whose input is wrong: `input.invalid`, its message and its first issue. */
async function refusal(call: Promise<unknown>) {
  const err = await apiError(call);
  expect(err.code).toBe('input.invalid');
  expect(err.message).not.toMatch(/Too small|Too big|Invalid input|expected \w+ to have|received \w+$/);
  return { message: err.message, issue: (err.details as { issues: Array<{ path: string; message: string }> }).issues[0] };
}

describe('input problems as sentences', () => {
  it('an empty name, no role', async () => {
    const { message, issue } = await refusal(t.as('admin').users.create.mutate({ name: '', password: 'long-enough-pw', roles: [] }));
    expect(issue).toEqual({ path: 'name', message: 'The name must not be empty.' });
    expect(message).toBe('The name must not be empty. The roles must have at least one item.');
  });

  it('numbers out of range, a missing field, a wrong type, a value not among the allowed ones', async () => {
    expect((await refusal(t.as('viewer').processes.list.query({ limit: 0 }))).message).toBe('The limit must be at least 1.');
    expect((await refusal(t.as('viewer').processes.list.query({ limit: 100_000 }))).message).toBe('The limit must be at most 500.');
    expect((await refusal(t.as('viewer').processes.list.query({ limit: 2.5 }))).message).toBe('The limit must be a whole number.');
    expect((await refusal(t.as('operator').processes.start.mutate({} as never))).message).toBe('The model id is missing.');
    expect((await refusal(t.as('designer').models.deploy.mutate({ source: 42 as never }))).message).toBe('The source must be text, not a number.');
    expect((await refusal(t.as('viewer').processes.variable.query({ pid: 'p', tid: 't', name: 'x', field: 'nope' as never }))).message).toBe(
      'The field must be one of “data”, “inputs”, “outputs”.',
    );
  });

  it("keeps a schema's own text, as a sentence", async () => {
    expect((await refusal(t.as('operator').processes.start.mutate({ mid: 'm', idempotencyKey: '' }))).message).toBe('The idempotency key is empty.');
  });

  it('names nested fields and list items', () => {
    expect(issueSentence({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, path: ['inputs', 'list', 1, 'note'], message: 'Too small: expected string to have >=1 characters' })).toBe(
      'The note in inputs.list.1 must not be empty.',
    );
    expect(issueSentence({ code: 'invalid_value', values: ['admin', 'viewer'], path: ['roles', 0], message: 'Invalid option: expected one of "admin"|"viewer"' })).toBe(
      'Item 1 of the roles must be one of “admin”, “viewer”.',
    );
    expect(issueSentence({ code: 'unrecognized_keys', keys: ['extra'], path: [], message: 'Unrecognized key: "extra"' })).toBe('The input has a field it does not know: “extra”.');
  });
});
