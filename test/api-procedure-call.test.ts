/**
 * The fast path's middleware chain (server/http/procedure-call.ts) against tRPC's own caller: the
 * same procedures (context merged by `next`, input parsed, raw input replaced, errors thrown at
 * any layer) give the same data and errors both ways; and the call's AbortSignal, made when first
 * read, is aborted when the caller goes away — whether it was read before or after.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { initTRPC, TRPCError, type AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callProcedure, lazySignal } from '../server/http/procedure-call.ts';

interface Ctx {
  user: string | null;
  extra?: number;
  seen?: AbortSignal;
}

const t = initTRPC.context<Ctx>().create();
const signedIn = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in' });
  return next({ ctx: { extra: 7 } });
});
const rawSwap = t.procedure.use(({ next }) => next({ getRawInput: async () => ({ n: 41 }) }));

const router = t.router({
  echo: signedIn.input(z.object({ n: z.number() })).query((opts) => ({ ctx: { user: opts.ctx.user, extra: opts.ctx.extra }, input: opts.input, path: opts.path, type: (opts as { type?: string }).type })),
  swapped: rawSwap.input(z.object({ n: z.number() })).mutation(({ input }) => input.n + 1),
  fails: signedIn.mutation(() => {
    throw new Error('inside');
  }),
  metaInput: t.procedure.use(({ meta, input, next }) => next({ input: { meta: meta ?? null, before: input ?? null } })).query(({ input }) => input),
  signal: t.procedure.query(({ signal }) => signal?.aborted ?? 'none'),
});

const procedures = router._def.procedures as Record<string, AnyProcedure>;

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { data: await run() };
  } catch (err) {
    const e = err as TRPCError;
    return { error: { code: e.code, message: e.message, cause: e.cause instanceof Error ? e.cause.message : null } };
  }
}

/** Calls `path` with tRPC's caller and with callProcedure; both outcomes. */
async function both(path: string, type: 'query' | 'mutation', raw: unknown, ctx: Ctx) {
  const getRawInput = async () => raw;
  const signal = new AbortController().signal;
  const viaTrpc = await outcome(() => procedures[path]({ path, getRawInput, ctx, type, signal, batchIndex: 0 }));
  const fast = await outcome(() => callProcedure(procedures[path], { path, getRawInput, ctx, type, signal: () => signal }));
  return { viaTrpc, fast };
}

describe('the fast path runs a procedure as tRPC does', () => {
  it.each([
    ['echo', 'query', { n: 1 }, { user: 'ann' }],
    ['echo', 'query', { n: 'x' }, { user: 'ann' }],
    ['echo', 'query', { n: 1 }, { user: null }],
    ['swapped', 'mutation', { n: 'ignored' }, { user: null }],
    ['fails', 'mutation', undefined, { user: 'ann' }],
    ['metaInput', 'query', undefined, { user: null }],
    ['signal', 'query', undefined, { user: null }],
  ] as const)('%s %s %j', async (path, type, raw, ctx) => {
    const { viaTrpc, fast } = await both(path, type, raw, ctx);
    expect(fast).toEqual(viaTrpc);
  });

  it('makes the signal on its first read, aborted once the caller went away', () => {
    const fakeRes = () => Object.assign(new EventEmitter(), { writableFinished: false }) as unknown as ServerResponse & { writableFinished: boolean };
    const early = fakeRes();
    const readEarly = lazySignal(early)();
    expect(readEarly.aborted).toBe(false);
    early.emit('close');
    expect(readEarly.aborted).toBe(true);

    const late = fakeRes();
    const readLate = lazySignal(late);
    late.emit('close');
    expect(readLate().aborted).toBe(true);

    const answered = fakeRes();
    const readAnswered = lazySignal(answered);
    answered.writableFinished = true;
    answered.emit('close');
    expect(readAnswered().aborted).toBe(false);
  });
});
