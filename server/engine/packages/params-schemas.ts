/**
 * The params JSON Schemas of the built-in packages (spec 1.9.2), checked against the evaluated
 * params of every run and by deploy (static-params.ts), and drawn as the designer's property form
 * (which builds its fields from the top-level `properties`, their `title`, `description` and the
 * first of their `type`s). They accept what the engine and its readers take:
 * - an interrupt's `title`/`description` (the inbox's heading), who may answer it — `assignee`,
 *   `candidate_users`, `candidate_groups`, `assignees` and `roles` (one name or a list,
 *   vocab/inbox-principals.ts) —, the answer form's `schema` (`required` answers and the
 *   fields' `properties`: their types, vocab/answer-fields.ts), its `outcomes` (vocab/outcomes.ts) and the variables
 *   the inbox shows as its `context` (server/api/task-context.ts); other keys are free (they reach
 *   the act's message);
 * - a whole-value template (`title: '{{ amount }}'`) may render to a number or a boolean, so text
 *   fields take any scalar, and one that renders to nothing leaves a list of names empty (`null`);
 * - the engine passes over the answer form's `required` entries that are not names, so they may be
 *   any scalar; an assignee or role that is not a name is refused (read as none it would open the
 *   task to every operator).
 */
import { ANSWER_FORMATS, ANSWER_TYPES, FILE_CAP_BYTES, ITEM_TYPES } from '../../../vocab/answer-fields.ts';
import { OUTCOMES_SCHEMA } from '../../../vocab/outcomes.ts';
import { QUORUM_SCHEMA } from '../../../vocab/quorum.ts';
import { SECRET_NAME } from '../../../vocab/secrets.ts';
import { SIGNATURE_PRESETS, WEBHOOK_DEFAULTS } from '../../../vocab/webhooks.ts';
import { CONTENT_TYPES, HTTP_DEFAULTS, HTTP_METHODS } from './http-params.ts';
import { ENV_NAME, SHELL_DEFAULTS, SHELL_OUTPUT_TYPES } from './shell-params.ts';
import { SHELLS } from './shell-types.ts';
import { STATE_OPS } from './state-types.ts';

const ACTIONS = ['next', 'complete', 'submit', 'back', 'cancel', 'abort', 'skip', 'error', 'push', 'remove', 'set_process_vars', 'set-vars'];

const text = (title: string, description: string) => ({ type: ['string', 'number', 'boolean'], title, description });
const names = (title: string, description: string) => ({ type: ['array', 'string', 'null'], items: { type: 'string' }, title, description });
const actsList = { type: 'array', items: { type: 'object' }, title: 'Acts', description: 'The acts to run, in YAML' };

export const IRQ_PARAMS = {
  properties: {
    title: text('Title', 'What the inbox asks, e.g. Approve {{ amount }} for {{ requester }}?'),
    description: text('Description', 'More words under the title in the inbox'),
    assignee: text('Assignee', 'The user the task is given to when it opens (in their hands; they may release or delegate it)'),
    candidate_users: names('Candidate users', 'User names who may claim and answer it'),
    candidate_groups: names('Candidate groups', 'Groups whose members may claim and answer it, e.g. finance'),
    assignees: names('Assignees', 'User names who may answer (as candidate users); with no one named any operator may'),
    roles: names('Roles', 'Roles whose users may answer, e.g. operator'),
    due: { type: ['string', 'number', 'null'], title: 'Due', description: 'When it is due: a time from its start (4h, 2d), a date (2026-12-31) or a date and time' },
    follow_up: { type: ['string', 'number', 'null'], title: 'Follow up', description: 'When to look at it again, written like Due' },
    priority: { type: ['number', 'null'], title: 'Priority', description: 'Higher comes first in the inbox (default 50)' },
    context: names('Context', 'Variables the inbox shows beside the task, e.g. amount, requester; with none, every variable visible at the task'),
    schema: {
      type: 'object',
      title: 'Answer form',
      properties: {
        required: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] }, title: 'Required answers', description: "Answer fields (the act's outputs) that may not be left blank" },
        properties: {
          type: 'object',
          title: 'Field types',
          description: 'Per answer field (by its name): type, title, description, choices; a date or a text area is a string with a format',
          additionalProperties: {
            type: 'object',
            title: 'Field',
            properties: {
              type: { enum: ANSWER_TYPES, title: 'Type', description: 'array: a list of rows (give their type under Rows); file: an upload stored with the run' },
              format: { enum: ANSWER_FORMATS, title: 'Format', description: 'For a string: date (YYYY-MM-DD) or multiline (a text area)' },
              title: text('Title', 'The label the inbox shows'),
              description: text('Description', 'Help under the field'),
              enum: { type: 'array', items: { type: ['string', 'number'] }, title: 'Choices', description: 'The values to choose from (a select)' },
              items: {
                type: 'object',
                title: 'Rows',
                description: 'For a list (type array): the type of each row',
                properties: {
                  type: { enum: ITEM_TYPES, title: 'Row type' },
                  format: { enum: ['date'], title: 'Row format', description: 'date: each row a date' },
                  enum: { type: 'array', items: { type: ['string', 'number'] }, title: 'Row choices', description: 'Each row chosen from these values' },
                },
              },
              maxBytes: { type: 'integer', minimum: 1, maximum: FILE_CAP_BYTES, title: 'Largest file (bytes)', description: `For a file: at most ${FILE_CAP_BYTES} (5 MiB, the default)` },
              accept: { type: 'array', items: { type: 'string', minLength: 1 }, title: 'File types', description: 'For a file: the media types taken, e.g. application/pdf, image/*' },
            },
          },
        },
      },
    },
    outcomes: { ...OUTCOMES_SCHEMA, title: 'Outcomes', description: 'The answers as buttons, e.g. approve: {} and reject: { ecode: rejected }' },
    quorum: QUORUM_SCHEMA,
  },
};

export const MSG_PARAMS = {
  properties: {
    to: names('To', 'Who the message is for: a name or a list'),
    title: text('Title', 'The subject of the message'),
    text: text('Text', 'The message, e.g. Your expense of {{ amount }} was approved'),
  },
};

export const ACTION_PARAMS = {
  type: 'object',
  required: ['action'],
  properties: {
    action: { type: 'string', enum: ACTIONS, title: 'Action', description: 'What to do to the enclosing step or act' },
    options: { type: 'object', title: 'Options', description: 'e.g. ecode: rejected for error, to: <step id> for back' },
  },
};

export const ESCALATE_PARAMS = {
  type: 'object',
  properties: {
    assignee: text('Give to', 'The user the task is given to (in their hands); naming anyone replaces who may answer'),
    candidate_users: names('Offer to users', 'User names who may claim and answer it from now on'),
    candidate_groups: names('Offer to groups', 'Groups whose members may claim and answer it from now on, e.g. managers'),
    roles: names('Offer to roles', 'Roles whose users may answer it from now on'),
    priority: { type: ['number', 'null'], title: 'Priority', description: 'The new priority (higher comes first in the inbox)' },
    reason: text('Reason', 'Why, as the inbox shows it, e.g. Not answered within 2 days'),
  },
};

export const BLOCK_PARAMS = {
  type: 'object',
  required: ['acts'],
  properties: { mode: { type: 'string', enum: ['sequence', 'parallel'], title: 'Mode' }, acts: actsList },
};

export const FAN_OUT_PARAMS = {
  type: 'object',
  required: ['in', 'acts'],
  properties: {
    // untyped: the package says itself, in a sentence, that `in` must evaluate to an array
    in: { title: 'For each of', description: 'A list, or an expression giving one, e.g. {{ users }}; each act sees $value and $index' },
    acts: actsList,
  },
};

export const SUBFLOW_PARAMS = {
  type: 'object',
  required: ['to'],
  properties: {
    to: { type: 'string', minLength: 1, title: 'Model to run', description: 'The id of a deployed model' },
    options: { type: 'object', title: 'Inputs of the child', description: 'e.g. v: "{{ v }}"' },
  },
};

/** A hook trigger's params: how its /hooks endpoint checks deliveries (server/http/webhooks). */
export const HOOK_PARAMS = {
  type: 'object',
  properties: {
    secret: { type: 'string', pattern: SECRET_NAME.source, title: 'Secret', description: 'Name of the stored secret the sender signs with (Admin › Secrets); without one the endpoint refuses every delivery' },
    signature: { enum: [...SIGNATURE_PRESETS], title: 'Signature', description: `github (X-Hub-Signature-256), stripe (Stripe-Signature) or generic (t=<secs>,v1=<hex> in the header below); default ${WEBHOOK_DEFAULTS.signature}` },
    header: { type: 'string', title: 'Signature header', description: `generic: the header carrying the signature (default ${WEBHOOK_DEFAULTS.header})` },
    tolerance_secs: { type: 'integer', minimum: 1, maximum: 86_400, title: 'Replay window (s)', description: `stripe and generic: how far the signed time may be from now (default ${WEBHOOK_DEFAULTS.toleranceSecs})` },
    max_bytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024, title: 'Largest body (bytes)', description: `default ${WEBHOOK_DEFAULTS.maxBytes} (1 MiB)` },
  },
};

export const SET_PARAMS = { type: 'object', title: 'Variables', description: 'Each key is set to its value and becomes an output' };

export const CODE_PARAMS = { type: 'string', title: 'JavaScript', description: 'Runs as a function body; a returned object becomes variables' };

/** `headers` and `params` of an http act: a list of `{key, value}` (the spec's form) or a plain map (the form edits either as YAML). */
const pairs = (title: string, description: string) => ({
  title,
  description,
  anyOf: [
    { type: 'array', items: { type: 'object', required: ['key'], properties: { key: { type: 'string', minLength: 1 }, value: {} } } },
    { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
  ],
});

// no `default` but the method's: the designer writes a new act's defaults into its params
export const HTTP_PARAMS = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, title: 'URL', description: 'An absolute http(s) URL, e.g. https://api.example.com/orders/{{ id }}' },
    method: { type: 'string', enum: HTTP_METHODS, default: 'GET', title: 'Method' },
    'content-type': { type: 'string', enum: CONTENT_TYPES, title: 'Body type', description: 'How the body is sent (default json; binary types take base64)' },
    headers: pairs('Headers', 'e.g. Authorization: Bearer {{ token }}'),
    params: pairs('Query', 'Added to the URL, e.g. page: 2'),
    body: { title: 'Body', description: 'Sent with POST, PUT, PATCH, DELETE, OPTIONS' },
    timeout: { type: 'number', exclusiveMinimum: 0, maximum: 3600, title: 'Timeout (s)', description: `Seconds one attempt may take (default ${HTTP_DEFAULTS.timeoutSecs})` },
    max_bytes: { type: 'integer', minimum: 1, title: 'Largest answer (bytes)', description: 'Default 10 MiB' },
    retries: { type: 'integer', minimum: 0, maximum: HTTP_DEFAULTS.maxRetries, title: 'Retries', description: 'Of GET, HEAD, PUT, DELETE, OPTIONS after a connection error or a 5xx (default 0)' },
  },
};

export const SHELL_PARAMS = {
  type: 'object',
  required: ['script'],
  additionalProperties: false,
  properties: {
    shell: { type: 'string', enum: SHELLS, default: 'sh', title: 'Shell', description: 'Runs as <shell> -c <script>; one the server has not installed fails the act (shell.unavailable)' },
    script: { type: 'string', minLength: 1, title: 'Script', description: 'e.g. wc -c < "$FILE"; pass values through env rather than {{ }} in the script, so they are never read as shell code' },
    'content-type': { type: 'string', enum: SHELL_OUTPUT_TYPES, title: 'Output', description: "text (default): stdout as it is, less one trailing newline; json: stdout parsed into the act's data" },
    env: {
      type: 'object',
      propertyNames: { pattern: ENV_NAME },
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
      title: 'Environment',
      description: 'Variables the script gets besides PATH, HOME, LANG, TMPDIR and ACTS_PID, e.g. FILE: "{{ file }}"',
    },
    timeout: { type: 'number', exclusiveMinimum: 0, maximum: SHELL_DEFAULTS.maxTimeoutSecs, title: 'Timeout (s)', description: `Seconds the script may run, then it is killed with all it started (default ${SHELL_DEFAULTS.timeoutSecs})` },
    max_bytes: { type: 'integer', minimum: 1, title: 'Largest output (bytes)', description: 'Of stdout; past it the script is killed (default 1 MiB)' },
  },
};

export const STATE_PARAMS = {
  type: 'object',
  required: ['op', 'key'],
  additionalProperties: false,
  properties: {
    op: { type: 'string', enum: STATE_OPS, default: 'GET', title: 'Operation', description: "GET reads the key's value into the data as {<key>: value}; SET stores value under the key" },
    key: { type: 'string', minLength: 1, maxLength: 512, title: 'Key', description: 'The name of the value, per process, e.g. cursor or order-{{ id }}' },
    value: { title: 'Value', description: 'For SET: any JSON value (text, number, list, map), e.g. "{{ total }}"' },
  },
  if: { properties: { op: { const: 'SET' } } },
  then: { required: ['value'] },
};
