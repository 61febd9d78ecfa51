/**
 * zod schemas of the model fields (spec 1.2–1.5). Parsing is lenient: a missing or `null` field
 * takes its default, unknown fields are dropped, and numbers or booleans written where text is
 * expected (`id: 1`, `if: true`) become strings. A field of the wrong type is an issue whose message
 * names what was expected, e.g. "expected a list of acts, got a string".
 */
import { z } from 'zod';
import type { Act, Branch, Catch, HookEvent, Step, Timeout, Trigger, Workflow } from './types.ts';

/** How a value reads in a message: "a string", "a list", "a mapping", … */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' || typeof value === 'bigint') return 'a number';
  return `a ${typeof value}`;
}

const expected = (what: string) => (issue: { input?: unknown }) =>
  `expected ${what}, got ${describeValue(issue.input)}`;

function asText(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value;
}

/** A text field; missing → ''. */
const text = z.preprocess((v) => (v == null ? '' : asText(v)), z.string({ error: expected('a string') }));

/** An optional text field; missing, `null` and '' → absent. */
const optionalText = z.preprocess((v) => {
  const t = asText(v);
  return t === null || t === '' ? undefined : t;
}, z.string({ error: expected('a string') }).optional());

/** An optional text field where '' is meaningful (a catch `on: ''` matches the empty error code). */
const optionalCode = z.preprocess((v) => (v === null ? undefined : asText(v)), z.string({ error: expected('a string') }).optional());

const anyJson = z.preprocess((v) => (v === undefined ? null : v), z.unknown());

const vars = z.preprocess(
  (v) => v ?? {},
  z.record(z.string(), z.unknown(), { error: expected('a mapping of names to values') }),
);

const jsonSchema = z.preprocess(
  (v) => (v === null ? undefined : v),
  z.record(z.string(), z.unknown(), { error: expected('a JSON Schema object') }).optional(),
);

const list = <T extends z.ZodType>(item: T, what: string) =>
  z.preprocess((v) => v ?? [], z.array(item, { error: expected(what) }));

/** `id`, `name`, `desc`, `tag`: shared by every node. */
const identity = { id: text, name: text, desc: text, tag: text };

const mapping = (what: string) => ({ error: expected(`${what} (a mapping of fields)`) });

const catchSchema: z.ZodType<Catch> = z.lazy(() =>
  z.object({ on: optionalCode, steps: list(stepSchema, 'a list of steps') }, mapping('a catch rule')),
);

const timeoutSchema: z.ZodType<Timeout> = z.lazy(() =>
  z.object({ on: text, steps: list(stepSchema, 'a list of steps') }, mapping('a timeout rule')),
);

const actSchema: z.ZodType<Act> = z.lazy(() =>
  z.object(
    {
      ...identity,
      uses: text,
      key: text,
      params: anyJson,
      options: vars,
      inputs: vars,
      outputs: vars,
      if: optionalText,
      on: optionalText as z.ZodType<HookEvent | undefined>,
      setup: list(actSchema, 'a list of acts'),
      catches: list(catchSchema, 'a list of catch rules'),
      timeout: list(timeoutSchema, 'a list of timeout rules'),
    },
    mapping('an act'),
  ),
);

const branchSchema: z.ZodType<Branch> = z.lazy(() =>
  z.object(
    {
      ...identity,
      if: optionalText,
      else: z.preprocess((v) => v ?? false, z.boolean({ error: expected('true or false') })),
      needs: list(text, 'a list of branch ids'),
      run: optionalText,
      inputs: vars,
      outputs: vars,
      steps: list(stepSchema, 'a list of steps'),
    },
    mapping('a branch'),
  ),
);

const stepSchema: z.ZodType<Step> = z.lazy(() =>
  z.object(
    {
      ...identity,
      if: optionalText,
      inputs: vars,
      outputs: vars,
      acts: list(actSchema, 'a list of acts'),
      branches: list(branchSchema, 'a list of branches'),
      next: optionalText,
      catches: list(catchSchema, 'a list of catch rules'),
      timeout: list(timeoutSchema, 'a list of timeout rules'),
      setup: list(actSchema, 'a list of acts'),
    },
    mapping('a step'),
  ),
);

const triggerSchema: z.ZodType<Trigger> = z.object(
  {
    ...identity,
    uses: text,
    params: anyJson,
    cron: optionalText,
    timezone: optionalText,
  },
  mapping('a trigger'),
);

const version = z.preprocess(
  (v) => (v == null ? 0 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: expected('a whole number') }).int({ error: 'expected a whole number' }).min(0, {
    error: 'expected a version of 0 or more',
  }),
);

/** The whole document. */
export const workflowSchema: z.ZodType<Workflow> = z.object(
  {
    ...identity,
    ver: version,
    inputs: vars,
    inputs_schema: jsonSchema,
    outputs: vars,
    exposes: jsonSchema,
    incidents: z.preprocess((v) => (v === null ? undefined : v), z.boolean({ error: expected('true or false') }).optional()),
    env: vars,
    setup: list(actSchema, 'a list of acts'),
    on: list(triggerSchema, 'a list of triggers'),
    steps: list(stepSchema, 'a list of steps'),
  },
  mapping('a workflow'),
);
