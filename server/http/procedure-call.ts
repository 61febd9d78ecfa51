/**
 * A procedure's middleware chain run as tRPC's own caller runs it (`callRecursive` in
 * @trpc/server 11: each layer gets the call's options with `meta`, `input` and `next`; `next(opts)`
 * merges a given `ctx` into the layer's, replaces `input` and `getRawInput` when given, and runs
 * the next layer; a layer that throws is a failed result of its error), with two differences in
 * cost, none in what a layer sees:
 * - the options are built as object literals: tRPC's build copies them with a transpiled spread
 *   helper (`_objectSpread2`: `Object.keys`, symbols, a `defineProperty` a key) at every layer and
 *   every `next` — ~8 % of the server's CPU for an API start (bench:http profile: three layers,
 *   each copying a nine-key context);
 * - `signal` is a getter that makes the call's AbortSignal on its first read (`lazySignal`):
 *   creating one per call was ~1.4 % of that CPU, and only a worker's long poll reads it.
 * A procedure with a caller override (`experimental_caller`) is left to tRPC.
 */
import type { ServerResponse } from 'node:http';
import type { AnyProcedure } from '@trpc/server';
import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import { ActError } from '../engine/errors.ts';

/** One call's options (the fields the fast path gives tRPC's caller); `signal` made when first read. */
export interface ProcedureCall {
  path: string;
  type: 'query' | 'mutation';
  ctx: object | undefined;
  getRawInput: () => Promise<unknown>;
  signal: () => AbortSignal;
}

/** A layer's view of the call: what `next` may change. */
interface Layer extends ProcedureCall {
  input: unknown;
}

interface NextOptions {
  ctx?: object;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}

type LayerResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type Middleware = (opts: object) => Promise<LayerResult>;

interface ChainDef {
  middlewares: Middleware[];
  meta: unknown;
}

/** tRPC's mark on a middleware's result. */
const MIDDLEWARE_MARKER = 'middlewareMarker';

/** The options middleware `index` is called with: tRPC's fields, in tRPC's order. */
function layerOptions(index: number, def: ChainDef, layer: Layer) {
  return {
    path: layer.path,
    getRawInput: layer.getRawInput,
    ctx: layer.ctx,
    type: layer.type,
    get signal() {
      return layer.signal();
    },
    batchIndex: 0,
    meta: def.meta,
    input: layer.input,
    next: nextOf(index, def, layer),
  };
}

/**
 * Layer `index`'s `next` (returned, not written in layerOptions' literal: under tsx the build
 * names every function written as a property, a `defineProperty` each time one is made).
 */
function nextOf(index: number, def: ChainDef, layer: Layer): (opts?: NextOptions) => Promise<LayerResult> {
  return (opts) =>
    callLayer(index + 1, def, {
      path: layer.path,
      type: layer.type,
      signal: layer.signal,
      ctx: opts?.ctx ? { ...layer.ctx, ...opts.ctx } : layer.ctx,
      input: opts && 'input' in opts ? opts.input : layer.input,
      getRawInput: opts?.getRawInput ?? layer.getRawInput,
    });
}

async function callLayer(index: number, def: ChainDef, layer: Layer): Promise<LayerResult> {
  try {
    return await def.middlewares[index](layerOptions(index, def, layer));
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: MIDDLEWARE_MARKER } as LayerResult;
  }
}

/** Runs `procedure` for `call`: its data, or throws its error (as calling the procedure does). */
export async function callProcedure(procedure: AnyProcedure, call: ProcedureCall): Promise<unknown> {
  const def = procedure._def as unknown as ChainDef & { experimental_caller?: boolean };
  if (def.experimental_caller) {
    return procedure({ path: call.path, getRawInput: call.getRawInput, ctx: call.ctx, type: call.type, signal: call.signal(), batchIndex: 0 });
  }
  const result = await callLayer(0, def, { ...call, input: undefined });
  if (!result) throw new ActError('internal', `procedure '${call.path}': a middleware returned no result (it must return next())`);
  if (!result.ok) throw result.error;
  return result.data;
}

/**
 * The AbortSignal of a call answered on `res`, made when first asked for: aborted when the caller
 * goes away before the answer (a remote worker's long poll stops taking jobs) — at once if it
 * already has.
 */
export function lazySignal(res: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    controller?.abort();
  });
  return () => {
    if (!controller) {
      controller = new AbortController();
      if (gone) controller.abort();
    }
    return controller.signal;
  };
}
