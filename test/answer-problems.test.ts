/**
 * The one check of typed answers (issue 15 item 4; vocab/answer-problems.ts), shared by the inbox
 * form and the engine: each problem code with its sentence naming the field by its title; what it
 * leaves alone (blank values, untyped keys); required lists; and deploy's sentences about the form
 * itself (vocab/answer-form-problems.ts).
 */
import { describe, expect, it } from 'vitest';
import { answerFields, FILE_CAP_BYTES, formatBytes } from '../vocab/answer-fields.ts';
import { answerFormProblems } from '../vocab/answer-form-problems.ts';
import { ANSWER_PROBLEM_CODES, answerProblems, fileTooLarge, fileUnknown, isIsoDate, problemsSentence } from '../vocab/answer-problems.ts';
import { blankRequiredAnswers } from '../vocab/answers.ts';

const params = {
  schema: {
    required: ['tags'],
    properties: {
      name: { type: 'string', title: 'Name' },
      notes: { type: 'string', format: 'multiline', title: 'Notes' },
      amount: { type: 'number', title: 'Amount' },
      count: { type: 'integer', title: 'Count' },
      urgent: { type: 'boolean', title: 'Urgent' },
      due: { type: 'string', format: 'date', title: 'Due date' },
      priority: { enum: ['low', 'high'], title: 'Priority' },
      level: { type: 'integer', enum: [1, 2, 3] },
      tags: { type: 'array', items: { type: 'string' }, title: 'Tags' },
      sizes: { type: 'array', items: { type: 'number' }, title: 'Sizes' },
      days: { type: 'array', items: { format: 'date' }, title: 'Days' },
      receipt: { type: 'file', title: 'Receipt', maxBytes: 2 * 1024 * 1024, accept: ['application/pdf', 'image/*'] },
      scan: { type: 'file' },
      free: { title: 'Free' },
    },
  },
};

const file = (over: Record<string, unknown> = {}) => ({ file: 'f1', name: 'r.pdf', size: 1000, type: 'application/pdf', ...over });
const check = (answers: Record<string, unknown>) => answerProblems(params, answers).map((p) => [p.code, p.message]);

describe('answerProblems', () => {
  it('takes values that fit their fields, and leaves blank values and untyped keys alone', () => {
    const good = {
      name: 'Ann',
      notes: 'line one\nline two',
      amount: 12.5,
      count: 3,
      urgent: false,
      due: '2026-12-31',
      priority: 'high',
      level: 2,
      tags: ['a', 'b'],
      sizes: [1, 2.5],
      days: ['2024-02-29'],
      receipt: file({ type: 'image/png' }),
      scan: file({ size: FILE_CAP_BYTES }),
      free: { anything: [1] },
      other: 'not a field',
    };
    expect(check(good)).toEqual([]);
    expect(check({ name: null, amount: '', due: '   ', receipt: null, tags: [] })).toEqual([]);
  });

  it('says each problem with its code and a sentence naming the field by its title', () => {
    expect(check({ name: 5 })).toEqual([['not_text', 'Name must be text.']]);
    expect(check({ notes: ['x'] })).toEqual([['not_text', 'Notes must be text.']]);
    expect(check({ amount: '12' })).toEqual([['not_number', 'Amount must be a number.']]);
    expect(check({ amount: Number.POSITIVE_INFINITY })).toEqual([['not_number', 'Amount must be a number.']]);
    expect(check({ count: 2.5 })).toEqual([['not_integer', 'Count must be a whole number.']]);
    expect(check({ urgent: 'yes' })).toEqual([['not_boolean', 'Urgent must be yes or no (true or false).']]);
    expect(check({ due: '31.12.2026' })).toEqual([['not_date', 'Due date must be a date like 2026-12-31.']]);
    expect(check({ due: '2026-02-30' })).toEqual([['not_date', 'Due date must be a date like 2026-12-31.']]);
    expect(check({ priority: 'medium' })).toEqual([['not_choice', 'Priority must be one of: low, high.']]);
    // a key without a title is named by its key; a choice is compared by value and type
    expect(check({ level: '2' })).toEqual([['not_choice', 'Level must be one of: 1, 2, 3.']]);
    expect(check({ tags: 'a, b' })).toEqual([['not_list', 'Tags must be a list.']]);
    expect(check({ sizes: [1, 'two', 3, 'four'] })).toEqual([
      ['not_number', 'Row 2 of Sizes must be a number.'],
      ['not_number', 'Row 4 of Sizes must be a number.'],
    ]);
    expect(check({ days: ['2026-13-01'] })).toEqual([['not_date', 'Row 1 of Days must be a date like 2026-12-31.']]);
    expect(check({ receipt: 'r.pdf' })).toEqual([['not_file', 'Receipt must be an uploaded file: the { file, name, size, type } its upload answered.']]);
    expect(check({ receipt: file({ size: 2 * 1024 * 1024 + 1 }) })).toEqual([['file_too_large', 'Receipt is larger than 2 MiB.']]);
    expect(check({ scan: file({ size: FILE_CAP_BYTES + 1 }) })).toEqual([['file_too_large', 'Scan is larger than 5 MiB.']]);
    expect(check({ receipt: file({ type: 'text/html' }) })).toEqual([['file_type', 'Receipt must be a file of type application/pdf, image/*, not text/html.']]);
  });

  it('lists the problems of every field in declared order, a row with its index', () => {
    const problems = answerProblems(params, { count: 'x', amount: 'y', sizes: [1, 'z'] });
    expect(problems).toEqual([
      { field: 'amount', code: 'not_number', message: 'Amount must be a number.' },
      { field: 'count', code: 'not_integer', message: 'Count must be a whole number.' },
      { field: 'sizes', code: 'not_number', message: 'Row 2 of Sizes must be a number.', index: 1 },
    ]);
    expect(problemsSentence(problems)).toBe('Amount must be a number. Count must be a whole number. Row 2 of Sizes must be a number.');
  });

  it("has a sentence for every code, the server's own (a file not uploaded for the task) included", () => {
    const receipt = answerFields(params).get('receipt')!;
    expect(fileUnknown(receipt)).toEqual({ field: 'receipt', code: 'file_unknown', message: 'Receipt names a file that was not uploaded for this task: upload it again.' });
    expect(fileTooLarge(receipt).message).toBe('Receipt is larger than 2 MiB.');
    const seen = new Set([
      ...answerProblems(params, { name: 1, amount: 'x', count: 0.5, urgent: 1, due: 'x', priority: 'x', tags: 'x', receipt: file({ size: 1e9, type: 'x/y' }), scan: 1 }).map((p) => p.code),
      fileUnknown(receipt).code,
    ]);
    expect([...seen].sort()).toEqual([...ANSWER_PROBLEM_CODES].sort());
  });

  it('reads dates strictly and sizes in words', () => {
    expect(['2026-12-31', '2024-02-29', '0001-01-01'].map(isIsoDate)).toEqual([true, true, true]);
    expect(['2025-02-29', '2026-1-01', '2026-12-31T00:00:00Z', 20261231, ''].map(isIsoDate)).toEqual([false, false, false, false, false]);
    expect([1, 800, 1024, 1536, 2 * 1024 * 1024, 5_500_000].map(formatBytes)).toEqual(['1 byte', '800 bytes', '1 KiB', '1.5 KiB', '2 MiB', '5.2 MiB']);
  });
});

describe('required answers', () => {
  it('counts an empty list as blank where the field is a list, not elsewhere', () => {
    expect(blankRequiredAnswers(params, { tags: [] })).toEqual(['tags']);
    expect(blankRequiredAnswers(params, { tags: ['x'] })).toEqual([]);
    expect(blankRequiredAnswers({ schema: { required: ['any'] } }, { any: [] })).toEqual([]);
  });
});

describe('answerFormProblems (deploy)', () => {
  const form = (properties: unknown) => answerFormProblems({ schema: { properties } });

  it('takes every declared type, templated values and free JSON-schema keys', () => {
    expect(form(params.schema.properties)).toEqual([]);
    expect(form({ a: { type: '{{ t }}', minimum: 1, default: 2 } })).toEqual([]);
    expect(form('{{ fields }}')).toEqual([]);
    expect(answerFormProblems({ title: 'no form' })).toEqual([]);
  });

  it('says what is wrong, where, in a sentence', () => {
    expect(form({ amount: { type: 'money' } })).toEqual([
      {
        at: ['schema', 'properties', 'amount', 'type'],
        message: "field 'amount': unknown type 'money': use one of string, number, integer, boolean, array, file (a date or a text area is `type: string` with `format: date` or `format: multiline`)",
      },
    ]);
    expect(form({ due: { type: 'string', format: 'time' } })[0]).toEqual({ at: ['schema', 'properties', 'due', 'format'], message: "field 'due': unknown format 'time': use date or multiline" });
    expect(form({ due: { type: 'number', format: 'date' } })[0].message).toBe("field 'due': `format: date` is for `type: string` fields");
    expect(form({ p: { enum: [] } })[0]).toEqual({ at: ['schema', 'properties', 'p', 'enum'], message: "field 'p': `enum` lists the values to choose from, e.g. `enum: [low, high]`" });
    expect(form({ tags: { type: 'array' } })[0].message).toMatch(/^field 'tags': a list needs `items` of one simple type/);
    expect(form({ tags: { type: 'array', items: { type: 'object' } } })[0].at).toEqual(['schema', 'properties', 'tags', 'items']);
    expect(form({ tags: { type: 'array', items: { enum: 'x' } } })[0].message).toBe("the rows of field 'tags': `enum` lists the values to choose from, e.g. `enum: [low, high]`");
    expect(form({ f: { type: 'file', maxBytes: FILE_CAP_BYTES + 1, accept: ['pdf'] } })).toEqual([
      { at: ['schema', 'properties', 'f', 'maxBytes'], message: "field 'f': `maxBytes` is a whole number of bytes from 1 to 5242880 (5 MiB, the server's cap), e.g. 2097152 for 2 MiB" },
      { at: ['schema', 'properties', 'f', 'accept'], message: "field 'f': `accept` lists media types, e.g. `accept: [application/pdf, image/*]`" },
    ]);
    expect(form({ n: { type: 'number', maxBytes: 10 } })[0].message).toBe("field 'n': `maxBytes` is for file fields (`type: file`)");
    expect(form({ n: 'text' })[0].message).toBe("field 'n' must be a map of its type, title and description, e.g. `amount: { type: number, title: Amount }`");
    expect(form([1])[0]).toEqual({ at: ['schema', 'properties'], message: '`schema.properties` maps each answer field to its type, e.g. `amount: { type: number, title: Amount }`' });
  });
});
