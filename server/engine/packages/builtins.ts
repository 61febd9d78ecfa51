/** The built-in packages (spec 1.9.2). Func packages carry their code; irq/msg are metadata. Their params schemas: params-schemas.ts. */
import { ActError } from '../errors.ts';
import type { Act, Vars } from '../model/types.ts';
import type { EscalateParams, FuncPackage, PackageDef, PackageMeta } from './types.ts';
import { ACTION_PARAMS, BLOCK_PARAMS, ESCALATE_PARAMS, CODE_PARAMS, FAN_OUT_PARAMS, HOOK_PARAMS, IRQ_PARAMS, MSG_PARAMS, SET_PARAMS, SUBFLOW_PARAMS } from './params-schemas.ts';
import { httpPackage } from './http.ts';
import { shellPackage } from './shell.ts';
import { statePackage } from './state.ts';

function meta(name: string, catalog: PackageMeta['catalog'], run_as: PackageMeta['run_as'], desc: string, schema: Record<string, unknown>): PackageMeta {
  return { name, desc, icon: '', doc: '', version: '1.0.0', schema, run_as, resources: [], catalog };
}

const irq = meta('acts.core.irq', 'core', 'irq', 'Waits for a person or a system to answer with an action.', IRQ_PARAMS);
const msg = meta('acts.core.msg', 'core', 'msg', 'Sends one notification message and continues.', MSG_PARAMS);

const action: FuncPackage = {
  ...meta('acts.core.action', 'core', 'func', 'Applies an action to the enclosing step or act.', ACTION_PARAMS),
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

const escalate: FuncPackage = {
  ...meta('acts.core.escalate', 'core', 'func', 'Escalates the open interrupt whose timeout runs it: offers it to others, raises its priority.', ESCALATE_PARAMS),
  run_as: 'func',
  run(ctx) {
    ctx.escalateOwner(ctx.params as EscalateParams);
  },
};

const block: FuncPackage = {
  ...meta('acts.core.block', 'core', 'func', 'Runs a list of acts in sequence or in parallel.', BLOCK_PARAMS),
  run_as: 'func',
  run(ctx) {
    const p = ctx.params as { mode?: 'sequence' | 'parallel'; acts: Act[] };
    ctx.expand(p.acts, p.mode ?? 'sequence');
  },
};

function fanOut(name: string, mode: 'sequence' | 'parallel', desc: string): FuncPackage {
  return {
    ...meta(name, 'core', 'func', desc, FAN_OUT_PARAMS),
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
  ...meta('acts.core.subflow', 'core', 'func', 'Runs another model as a child process and waits for it.', SUBFLOW_PARAMS),
  run_as: 'func',
  run(ctx) {
    const p = ctx.params as { to: string; options?: Vars };
    ctx.holdCompletion();
    ctx.startSubflow(p.to, p.options ?? {});
  },
};

const set: FuncPackage = {
  ...meta('acts.transform.set', 'transform', 'func', 'Sets variables and exports them as outputs.', SET_PARAMS),
  run_as: 'func',
  run(ctx) {
    const vars = (ctx.params ?? {}) as Vars;
    ctx.setVars(vars);
    ctx.markOutputs(Object.keys(vars).filter((k) => !k.startsWith('__')));
  },
};

const code: FuncPackage = {
  ...meta('acts.transform.code', 'transform', 'func', 'Runs JavaScript; a returned object becomes variables.', CODE_PARAMS),
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
const hook = meta('acts.event.hook', 'event', 'func', 'Starts the model from a signed HTTP delivery (POST /hooks/<model>/<trigger>), or on demand and waits for its outputs.', HOOK_PARAMS);
const chat = meta('acts.event.chat', 'event', 'func', 'Starts the model with a text as input `data`.', triggerSchema);
const schedule = meta('acts.event.schedule', 'event', 'func', 'Starts the model on a cron schedule.', triggerSchema);

export const BUILT_IN_PACKAGES: PackageDef[] = [irq, msg, action, escalate, block, fanOut('acts.core.parallel', 'parallel', 'Runs acts once per item, all at once.'), fanOut('acts.core.sequence', 'sequence', 'Runs acts once per item, one item after another.'), subflow, httpPackage, shellPackage, statePackage, set, code, manual, hook, chat, schedule];

export const TRIGGER_PACKAGES = new Set(['acts.event.manual', 'acts.event.hook', 'acts.event.chat', 'acts.event.schedule']);
