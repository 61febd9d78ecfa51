/** The built-in packages (spec 1.9.2). Func packages carry their code; irq/msg are metadata. */
import { ActError } from '../errors.ts';
import type { Act, Vars } from '../model/types.ts';
import type { FuncPackage, PackageDef, PackageMeta } from './types.ts';
import { OUTCOMES_SCHEMA } from '../../../vocab/outcomes.ts';
import { httpPackage } from './http.ts';

const ACTIONS = ['next', 'complete', 'submit', 'back', 'cancel', 'abort', 'skip', 'error', 'push', 'remove', 'set_process_vars', 'set-vars'];

function meta(name: string, catalog: PackageMeta['catalog'], run_as: PackageMeta['run_as'], desc: string, schema: Record<string, unknown>): PackageMeta {
  return { name, desc, icon: '', doc: '', version: '1.0.0', schema, run_as, resources: [], catalog };
}

const actsList = { type: 'array', items: { type: 'object' } };

// params are free but for `outcomes`, the answers a person may choose (vocab/outcomes.ts); under
// `allOf`, so the designer (which builds a form from top-level `properties`) keeps editing an irq's
// params as one YAML field
const irq = meta('acts.core.irq', 'core', 'irq', 'Waits for a person or a system to answer with an action.', { allOf: [{ properties: { outcomes: OUTCOMES_SCHEMA } }] });
const msg = meta('acts.core.msg', 'core', 'msg', 'Sends one notification message and continues.', {});

const action: FuncPackage = {
  ...meta('acts.core.action', 'core', 'func', 'Applies an action to the enclosing step or act.', {
    type: 'object',
    required: ['action'],
    properties: { action: { type: 'string', enum: ACTIONS }, options: { type: 'object' } },
  }),
  run_as: 'func',
  run(ctx) {
    const p = ctx.params as { action: string; options?: Vars };
    ctx.actOnParent(p.action, p.options ?? {});
  },
  parentAction(params) {
    const p = params as { action: string; options?: Vars };
    return { action: p.action, options: p.options ?? {} };
  },
};

const block: FuncPackage = {
  ...meta('acts.core.block', 'core', 'func', 'Runs a list of acts in sequence or in parallel.', {
    type: 'object',
    required: ['acts'],
    properties: { mode: { type: 'string', enum: ['sequence', 'parallel'] }, acts: actsList },
  }),
  run_as: 'func',
  run(ctx) {
    const p = ctx.params as { mode?: 'sequence' | 'parallel'; acts: Act[] };
    ctx.expand(p.acts, p.mode ?? 'sequence');
  },
};

function fanOut(name: string, mode: 'sequence' | 'parallel', desc: string): FuncPackage {
  return {
    ...meta(name, 'core', 'func', desc, {
      type: 'object',
      required: ['in', 'acts'],
      properties: { in: {}, acts: actsList },
    }),
    run_as: 'func',
    run(ctx) {
      const p = ctx.params as { in: unknown; acts: Act[] };
      if (!Array.isArray(p.in)) {
        throw new ActError('params.invalid', `${name}: 'in' must evaluate to an array, got ${p.in === null ? 'null' : typeof p.in}`);
      }
      const blocks = p.in.map(
        (value, index): Act => ({
          id: '',
          name: '',
          desc: '',
          tag: '',
          key: '',
          uses: 'acts.core.block',
          params: { mode: 'sequence', acts: p.acts },
          options: { $index: index, $value: value },
          inputs: {},
          outputs: {},
          setup: [],
          catches: [],
          timeout: [],
        }),
      );
      ctx.expand(blocks, mode);
    },
  };
}

const subflow: FuncPackage = {
  ...meta('acts.core.subflow', 'core', 'func', 'Runs another model as a child process and waits for it.', {
    type: 'object',
    required: ['to'],
    properties: { to: { type: 'string', minLength: 1 }, options: { type: 'object' } },
  }),
  run_as: 'func',
  run(ctx) {
    const p = ctx.params as { to: string; options?: Vars };
    ctx.holdCompletion();
    ctx.startSubflow(p.to, p.options ?? {});
  },
};

const set: FuncPackage = {
  ...meta('acts.transform.set', 'transform', 'func', 'Sets variables and exports them as outputs.', { type: 'object' }),
  run_as: 'func',
  run(ctx) {
    const vars = (ctx.params ?? {}) as Vars;
    ctx.setVars(vars);
    ctx.markOutputs(Object.keys(vars).filter((k) => !k.startsWith('__')));
  },
};

const code: FuncPackage = {
  ...meta('acts.transform.code', 'transform', 'func', 'Runs JavaScript; a returned object becomes variables.', { type: 'string' }),
  run_as: 'func',
  run(ctx) {
    ctx.runCode(ctx.params as string, 'function', (result) => {
      if (result && typeof result === 'object' && !Array.isArray(result)) {
        ctx.setVars(result as Vars);
        ctx.markOutputs(Object.keys(result).filter((k) => !k.startsWith('__')));
      }
    });
  },
};

const triggerSchema = {};
const manual = meta('acts.event.manual', 'event', 'func', 'Starts the model on demand; returns its pid.', triggerSchema);
const hook = meta('acts.event.hook', 'event', 'func', 'Starts the model and waits for its outputs.', triggerSchema);
const chat = meta('acts.event.chat', 'event', 'func', 'Starts the model with a text as input `data`.', triggerSchema);
const schedule = meta('acts.event.schedule', 'event', 'func', 'Starts the model on a cron schedule.', triggerSchema);

export const BUILT_IN_PACKAGES: PackageDef[] = [irq, msg, action, block, fanOut('acts.core.parallel', 'parallel', 'Runs acts once per item, all at once.'), fanOut('acts.core.sequence', 'sequence', 'Runs acts once per item, one item after another.'), subflow, httpPackage, set, code, manual, hook, chat, schedule];

export const TRIGGER_PACKAGES = new Set(['acts.event.manual', 'acts.event.hook', 'acts.event.chat', 'acts.event.schedule']);
