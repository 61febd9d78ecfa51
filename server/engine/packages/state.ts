/**
 * The `acts.app.state` package (spec 1.9.2): per-process values by key, kept by the engine's state
 * keeper off the lane. `GET` writes `{<key>: value}` into the act's data (null when the key was
 * never set) and makes it the act's output; `SET` stores the value (any JSON) and writes nothing.
 */
import { STATE_PARAMS } from './params-schemas.ts';
import type { StateOp } from './state-types.ts';
import type { FuncPackage } from './types.ts';

export const statePackage: FuncPackage = {
  name: 'acts.app.state',
  desc: 'Keeps values per process: SET stores one under a key, GET reads it back into the data.',
  icon: '',
  doc: '',
  version: '1.0.0',
  schema: STATE_PARAMS,
  resources: [],
  catalog: 'app',
  run_as: 'func',
  run(ctx) {
    const op = ctx.params as StateOp;
    ctx.keepState(op, (value) => {
      if (op.op !== 'GET') return;
      ctx.setVars({ [op.key]: value });
      ctx.markOutputs([op.key]);
    });
  },
};
