/**
 * Typed forms (issue 15 item 4) over real HTTP, on SQLite and PostgreSQL: an interrupt act's
 * answer fields carry types; the engine refuses an answer that does not fit them with
 * `action.answer_invalid` — one sentence per problem, the same the inbox form shows — and nothing
 * changes; files are uploaded to `/api/files/<pid>/<tid>` (size-limited, typed, only for a task the
 * caller may answer), referenced by the answer, refused when not uploaded for this task,
 * downloadable with `read` permission and deleted with their process; an outcome that requires a
 * comment is refused without one (`action.comment_required`); deploy refuses an unknown field
 * type with a sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { apiError, passwordOf, rawCall, startTestServer, waitingTask, type TestServer } from './helpers/server.ts';

const model = `id: typed
name: Typed answers
inputs: { amount: 5, who: null }
steps:
  - id: fill
    acts:
      - uses: acts.core.irq
        key: fill
        params:
          title: 'Expense {{ amount }}'
          assignees: '{{ who }}'
          schema:
            required: [due]
            properties:
              total: { type: number, title: Total }
              count: { type: integer, title: Count }
              due: { type: string, format: date, title: Due date }
              priority: { enum: [low, high], title: Priority }
              notes: { type: string, format: multiline, title: Notes }
              lines: { type: array, items: { type: integer }, title: Lines }
              receipt: { type: file, title: Receipt, maxBytes: 1024, accept: [application/pdf, text/*] }
          outcomes:
            approve: { label: Approve }
            reject: { label: Reject, ecode: rejected, comment: required }
        outputs: { total: null, count: null, due: null, priority: low, notes: '', lines: [], receipt: null }
  - id: after
    acts:
      - { uses: acts.core.irq, key: after }
`;

interface Reply {
  status: number;
  body: { error?: { code: string; message: string; details?: unknown }; file?: string; name?: string; size?: number; type?: string };
}

describe.each(SQL_BACKENDS)('on %s', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend, engine: { sweepAfterSecs: 0 } });
    await t.as('designer').models.deploy.mutate({ source: model });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function startFill(inputs: Record<string, unknown> = {}) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'typed', inputs });
    const { task } = await waitingTask(t, pid, 'fill');
    return { pid, tid: task!.tid };
  }

  async function upload(who: string | null, pid: string, tid: string, query: string, body: BodyInit, type = 'application/pdf', headers: Record<string, string> = {}): Promise<Reply> {
    const auth: Record<string, string> = who ? { authorization: `Bearer ${t.tokenOf(who)}` } : {};
    const res = await fetch(`${t.url}/api/files/${pid}/${tid}?${query}`, { method: 'POST', body, headers: { 'content-type': type, ...auth, ...headers }, duplex: 'half' } as RequestInit);
    return { status: res.status, body: (await res.json()) as Reply['body'] };
  }

  const good = { total: 12.5, count: 2, due: '2026-12-31', priority: 'high', notes: 'one\ntwo', lines: [3, 4], receipt: null };

  it('refuses a wrong type, a bad date and a choice not offered with action.answer_invalid, a sentence each; nothing changes', async () => {
    const { pid, tid } = await startFill();
    const before = await waitingTask(t, pid, 'fill');
    const op = t.as('operator');
    const err = await apiError(op.tasks.outcome.mutate({ pid, tid, options: { ...good, outcome: 'approve', total: '12.5', due: '31.12.2026', priority: 'medium', lines: [1, 'two'] } }));
    expect(err).toMatchObject({ code: 'action.answer_invalid', httpStatus: 400 });
    expect(err.message).toBe('Total must be a number. Due date must be a date like 2026-12-31. Priority must be one of: low, high. Row 2 of Lines must be a whole number.');
    expect(err.details).toEqual({
      problems: [
        { field: 'total', code: 'not_number', message: 'Total must be a number.' },
        { field: 'due', code: 'not_date', message: 'Due date must be a date like 2026-12-31.' },
        { field: 'priority', code: 'not_choice', message: 'Priority must be one of: low, high.' },
        { field: 'lines', code: 'not_integer', message: 'Row 2 of Lines must be a whole number.', index: 1 },
      ],
    });
    // complete checks the same; a blank required field is still action.answer_required (its own contract)
    expect(await apiError(op.tasks.complete.mutate({ pid, tid, options: { ...good, count: 1.5 } }))).toMatchObject({ code: 'action.answer_invalid', message: 'Count must be a whole number.' });
    expect(await apiError(op.tasks.complete.mutate({ pid, tid, options: { ...good, due: ' ' } }))).toMatchObject({ code: 'action.answer_required', details: { fields: ['due'] } });
    expect(await apiError(op.tasks.complete.mutate({ pid, tid, options: { ...good, receipt: 'scan.pdf' } }))).toMatchObject({ code: 'action.answer_invalid', details: { problems: [{ field: 'receipt', code: 'not_file' }] } });
    const after = await waitingTask(t, pid, 'fill');
    expect(after.task?.tid).toBe(tid);
    expect(after.task?.data).toEqual(before.task?.data);
    expect(after.detail.variables).toEqual(before.detail.variables);

    await op.tasks.outcome.mutate({ pid, tid, options: { ...good, outcome: 'approve' } });
    const next = await waitingTask(t, pid, 'after');
    expect(next.detail.variables).toMatchObject({ ...good, outcome: 'approve' });
  });

  it('takes a file uploaded for the task: the answer holds its reference, the file downloads with read permission', async () => {
    const { pid, tid } = await startFill();
    const pdf = Buffer.from('%PDF-1.4 a receipt ✓');
    const up = await upload('operator', pid, tid, 'field=receipt&name=' + encodeURIComponent('reçu 1.pdf'), pdf);
    expect(up).toMatchObject({ status: 201, body: { name: 'reçu 1.pdf', size: pdf.length, type: 'application/pdf' } });
    const ref = up.body;
    expect(ref.file).toMatch(/^[\w-]{24}$/);
    const audit = await t.audit.last('file.upload');
    expect(audit).toMatchObject({ actor_name: 'operator', target: `${pid}/${tid}`, result: 'ok' });

    await t.as('operator').tasks.complete.mutate({ pid, tid, options: { ...good, receipt: ref } });
    const { detail } = await waitingTask(t, pid, 'after');
    expect(detail.variables.receipt).toEqual(ref);

    const res = await fetch(`${t.url}/api/files/${ref.file}`, { headers: { authorization: `Bearer ${t.tokenOf('viewer')}` } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="re_u 1.pdf"; filename*=UTF-8''${encodeURIComponent('reçu 1.pdf')}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const anon = await fetch(`${t.url}/api/files/${ref.file}`);
    expect([anon.status, ((await anon.json()) as Reply['body']).error?.code]).toEqual([401, 'auth.required']);
    const missing = await fetch(`${t.url}/api/files/nope`, { headers: { authorization: `Bearer ${t.tokenOf('viewer')}` } });
    expect([missing.status, ((await missing.json()) as Reply['body']).error?.code]).toEqual([404, 'file.not_found']);
  });

  it('refuses an oversized file, a type not accepted, a field that takes no file, and callers who may not answer; nothing is stored', async () => {
    const { pid, tid } = await startFill({ who: 'alice' });
    const big = Buffer.alloc(1025, 1);
    const tooLarge = { status: 413, body: { error: { code: 'file.too_large', message: 'Receipt is larger than 1 KiB.' } } };
    expect(await upload('alice', pid, tid, 'field=receipt&name=big.pdf', big)).toMatchObject(tooLarge);
    // without a Content-Length the bytes are counted as they come
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new Uint8Array(600));
        c.enqueue(new Uint8Array(600));
        c.close();
      },
    });
    expect(await upload('alice', pid, tid, 'field=receipt&name=big.pdf', stream)).toMatchObject(tooLarge);
    expect(await upload('alice', pid, tid, 'field=receipt&name=page.html', '<script>', 'application/x-msdownload')).toMatchObject({
      status: 400,
      body: { error: { code: 'file.invalid', message: 'Receipt must be a file of type application/pdf, text/*, not application/x-msdownload.' } },
    });
    expect(await upload('alice', pid, tid, 'field=notes&name=a.txt', 'x', 'text/plain')).toMatchObject({ status: 400, body: { error: { code: 'file.invalid', message: "task '" + tid + "' has no file field 'notes' in its answer form: its file fields are 'receipt'" } } });
    for (const name of ['', '&name=', '&name=a%0Ab.pdf']) {
      expect(await upload('alice', pid, tid, `field=receipt${name}`, 'x', 'text/plain')).toMatchObject({ status: 400, body: { error: { code: 'file.invalid', message: "give the file's name as ?name=<name> (1 to 255 characters, no control characters)" } } });
    }
    // bob is an operator, but the task is alice's; a viewer may not upload; nobody signed in neither
    expect(await upload('bob', pid, tid, 'field=receipt&name=a.pdf', 'x')).toMatchObject({ status: 403, body: { error: { code: 'auth.forbidden' } } });
    expect(await upload('viewer', pid, tid, 'field=receipt&name=a.pdf', 'x')).toMatchObject({ status: 403, body: { error: { code: 'auth.forbidden' } } });
    expect(await upload(null, pid, tid, 'field=receipt&name=a.pdf', 'x')).toMatchObject({ status: 401, body: { error: { code: 'auth.required' } } });
    expect(await upload('alice', pid, 'no-such-task', 'field=receipt&name=a.pdf', 'x')).toMatchObject({ status: 404, body: { error: { code: 'task.not_found' } } });
    expect((await t.store.files.query()).rows.filter((f) => f.pid === pid)).toEqual([]);
    expect(await t.audit.last('file.upload')).toMatchObject({ actor_name: 'alice', target: `${pid}/no-such-task`, result: 'task.not_found' });
  });

  it('takes an upload signed in by cookie only with the CSRF header', async () => {
    const { pid, tid } = await startFill();
    const login = await rawCall(t.url, 'auth.login', { body: { name: 'operator', password: passwordOf('operator') }, headers: { 'x-acts-csrf': '1' } });
    const cookie = login.setCookie!.split(';')[0];
    const forged = await upload(null, pid, tid, 'field=receipt&name=a.txt', 'x', 'text/plain', { cookie });
    expect(forged).toMatchObject({ status: 403, body: { error: { code: 'auth.forbidden', message: 'an upload signed in by cookie needs the header x-acts-csrf: 1' } } });
    expect(await upload(null, pid, tid, 'field=receipt&name=a.txt', 'x', 'text/plain', { cookie, 'x-acts-csrf': '1' })).toMatchObject({ status: 201, body: { name: 'a.txt', size: 1, type: 'text/plain' } });
  });

  it('refuses a reference to a file uploaded for another task, or altered, with the file_unknown problem', async () => {
    const first = await startFill();
    const second = await startFill();
    const up = await upload('operator', first.pid, first.tid, 'field=receipt&name=r.txt', 'receipt', 'text/plain');
    expect(up.status).toBe(201);
    const op = t.as('operator');
    const unknown = { code: 'action.answer_invalid', message: 'Receipt names a file that was not uploaded for this task: upload it again.', details: { problems: [{ field: 'receipt', code: 'file_unknown' }] } };
    expect(await apiError(op.tasks.complete.mutate({ pid: second.pid, tid: second.tid, options: { ...good, receipt: up.body } }))).toMatchObject(unknown);
    expect(await apiError(op.tasks.complete.mutate({ pid: first.pid, tid: first.tid, options: { ...good, receipt: { ...up.body, size: 5 } } }))).toMatchObject(unknown);
    expect(await apiError(op.tasks.complete.mutate({ pid: first.pid, tid: first.tid, options: { ...good, receipt: { ...up.body, file: 'made-up' } } }))).toMatchObject(unknown);
    // a size above the field's limit in the reference itself is the engine's check
    expect((await waitingTask(t, second.pid, 'fill')).task?.tid).toBe(second.tid);
    await op.tasks.complete.mutate({ pid: first.pid, tid: first.tid, options: { ...good, receipt: up.body } });
  });

  it('refuses an outcome that requires a comment without one; with one, the comment is recorded and is the error message', async () => {
    const { pid, tid } = await startFill();
    const op = t.as('operator');
    for (const comment of [undefined, '', '   ']) {
      const err = await apiError(op.tasks.outcome.mutate({ pid, tid, options: comment === undefined ? { outcome: 'reject' } : { outcome: 'reject', comment } }));
      expect(err).toMatchObject({ code: 'action.comment_required', httpStatus: 400, message: 'Reject needs a comment: say why in a few words.', details: { outcome: 'reject' } });
    }
    expect(await apiError(op.tasks.outcome.mutate({ pid, tid, options: { outcome: 'reject', comment: 7 } }))).toMatchObject({ code: 'action.invalid_options' });
    expect((await waitingTask(t, pid, 'fill')).task?.tid).toBe(tid);

    await op.tasks.outcome.mutate({ pid, tid, options: { outcome: 'reject', comment: '  Not a business expense ' } });
    await t.engine.idle();
    const { process, tasks } = await t.as('viewer').processes.get.query({ pid });
    expect(process).toMatchObject({ state: 'completed', outcome: 'reject' });
    const act = tasks.find((x) => x.tid === tid)!;
    expect(act.data).toMatchObject({ outcome: 'reject', comment: 'Not a business expense' });
    expect(act.err).toMatchObject({ ecode: 'rejected', message: 'Not a business expense' });
  });

  it("deletes a process's files with it (the sweeper)", async () => {
    const { pid, tid } = await startFill();
    const up = await upload('operator', pid, tid, 'field=receipt&name=r.txt', 'receipt', 'text/plain');
    await t.as('operator').tasks.complete.mutate({ pid, tid, options: { ...good, receipt: up.body } });
    const { task } = await waitingTask(t, pid, 'after');
    expect(await t.store.files.exists(up.body.file!)).toBe(true);
    await t.as('operator').tasks.complete.mutate({ pid, tid: task!.tid });
    await t.engine.idle();
    await t.engine.tick();
    await t.engine.tick();
    await expect(t.as('viewer').processes.get.query({ pid })).rejects.toThrow();
    expect(await t.store.files.exists(up.body.file!)).toBe(false);
  });

  it('deploy refuses an unknown field type and a malformed outcome comment with sentences at their places', async () => {
    const bad = model
      .replace('id: typed', 'id: typed_bad')
      .replace('total: { type: number, title: Total }', 'total: { type: money, title: Total }')
      .replace('comment: required', 'comment: always');
    const err = await apiError(t.as('designer').models.deploy.mutate({ source: bad }));
    expect(err.code).toBe('model.invalid');
    // in document order (the answer form is written before the outcomes)
    expect((err.details as Array<{ code: string; path: string; message: string }>).map((p) => [p.code, p.path, p.message])).toEqual([
      [
        'model.bad_answer_form',
        'steps[0].acts[0].params.schema.properties.total.type',
        "field 'total': unknown type 'money': use one of string, number, integer, boolean, array, file (a date or a text area is `type: string` with `format: date` or `format: multiline`)",
      ],
      ['model.bad_outcomes', 'steps[0].acts[0].params.outcomes.reject.comment', "outcome 'reject': `comment` is required or optional (leave it out for none)"],
    ]);
  });
});
