/**
 * Drafts: a designer's unsaved work, saved by the designer's autosave and read back when they
 * return (server/drafts). Each caller reaches only their own drafts; `deployCheck` tells what
 * changed since the version a text started from (versions deployed since, other designers' drafts
 * saved since this caller's draft began), so the studio can warn before a deploy overwrites it.
 * Not audited: an autosave runs about once a second of editing, and a draft changes nothing
 * anyone else sees; the deploy that ends it is audited (`model.deploy`).
 */
import { z } from 'zod';
import type { Caller } from '../../auth/types.ts';
import type { DraftOwner } from '../../drafts/index.ts';
import { id, layout, yamlSource } from '../limits.ts';
import { allowed, router } from '../trpc.ts';
import { DRAFT_KEY_PATTERN } from '../../../vocab/input-limits.ts';

const baseVer = z.number().int().min(0).max(1_000_000);
const fresh = z.string().regex(DRAFT_KEY_PATTERN, "a new workflow's draft key is 8 to 64 letters, digits, '-' or '_'");
/** Which draft: `{ mid }` (a deployed model) or `{ fresh }` (a workflow never deployed, by the key the studio made). */
const key = z.union([z.object({ mid: id }).strict(), z.object({ fresh }).strict()]);

const ownerOf = (caller: Caller): DraftOwner => ({ userId: caller.userId, name: caller.name });

export const draftsRouter = router({
  save: allowed('design')
    .input(z.object({ key, source: yamlSource, layout: layout.default({}), base_ver: baseVer }))
    .mutation(({ ctx, input }) => ctx.services.drafts.save(ownerOf(ctx.caller), input)),

  /** The caller's draft of `key`, or null. */
  get: allowed('design')
    .input(z.object({ key }))
    .query(({ ctx, input }) => ctx.services.drafts.get(ownerOf(ctx.caller), input.key)),

  /** The caller's drafts (no texts), most recently saved first. */
  list: allowed('design').query(async ({ ctx }) => ({ rows: await ctx.services.drafts.list(ownerOf(ctx.caller)) })),

  /** Deletes the caller's draft of `key` (idempotent). */
  discard: allowed('design')
    .input(z.object({ key }))
    .mutation(async ({ ctx, input }) => ({ discarded: await ctx.services.drafts.discard(ownerOf(ctx.caller), input.key) })),

  /**
   * What a deploy of model `mid` from version `base_ver` (0: a workflow never deployed) would go
   * over: the versions deployed after `base_ver`, and the other designers' drafts of `mid` saved
   * after the caller's own draft was started (any, when the caller has none). Both empty: nothing
   * to warn about (docs/server.md, "Drafts").
   */
  deployCheck: allowed('design')
    .input(z.object({ mid: id, base_ver: baseVer }))
    .query(async ({ ctx, input }) => {
      const { engine, drafts } = ctx.services;
      const owner = ownerOf(ctx.caller);
      const deployed = await engine.models.versions(input.mid);
      const mine = await drafts.get(owner, { mid: input.mid });
      const since = mine?.create_time ?? 0;
      return {
        deployed_since: deployed
          .filter((v) => v.ver > input.base_ver)
          .sort((a, b) => b.ver - a.ver)
          .map((v) => ({ ver: v.ver, create_time: v.create_time, deployed_by: v.deployed_by ?? null })),
        others: (await drafts.othersOf(owner, input.mid)).filter((d) => d.update_time > since),
      };
    }),
});
