/**
 * Packages: the registered packages with their parameter schemas; designers declare external
 * packages (`register`: run by remote workers, routers/workers.ts) and remove them.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { id } from '../limits.ts';
import { page, pageOf, toQuery } from '../paging.ts';
import { allowed, router } from '../trpc.ts';
import { ActError } from '../../engine/errors.ts';

/** An external package's name: dotted lowercase words (`ext.resize`); `acts.` names are the engine's. */
const EXTERNAL_NAME = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;

function checkExternal(name: string, schema: unknown): void {
  if (!EXTERNAL_NAME.test(name)) throw new ActError('package.invalid', `'${name}' is not a package name: use dotted lowercase words, such as 'ext.resize'`);
  if (name.startsWith('acts.')) throw new ActError('package.invalid', `'${name}': names under 'acts.' belong to the engine's own packages; pick another, such as 'ext.${name.split('.').pop()}'`);
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new ActError('package.invalid', `package '${name}': the params schema must be a JSON Schema object, such as { "type": "object", "properties": { … } }`);
}

/** A package as the API shows it: `external` when remote workers run it. */
const shown = <T extends { run_as: string }>(row: T) => ({ ...row, external: row.run_as === 'worker' });

export const packagesRouter = router({
  list: allowed('read')
    .input(z.object({ ...page, limit: page.limit.default(200) }).default({ offset: 0, limit: 200 }))
    .query(async ({ ctx, input }) => {
      const rows = pageOf(await ctx.services.engine.packages.list(toQuery([], input, { field: 'id', order: 'asc' })), input);
      return { ...rows, rows: rows.rows.map(shown) };
    }),
  get: allowed('read')
    .input(z.object({ name: id }))
    .query(async ({ ctx, input }) => {
      return shown(await ctx.services.engine.packages.get(input.name));
    }),
  /** Declares (or changes) an external package: its acts wait for a remote worker (issue 13 item 6). */
  register: allowed('design')
    .input(z.object({ name: id, desc: z.string().max(2000).default(''), schema: z.unknown() }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'package.register', target: input.name, detail: { schema: input.schema } }, async () => {
        checkExternal(input.name, input.schema);
        const pkg = await ctx.services.engine.packages.register({ name: input.name, desc: input.desc, schema: input.schema as Record<string, unknown>, run_as: 'worker', catalog: 'app' });
        return { name: pkg.name, desc: pkg.desc, schema: pkg.schema, external: true };
      }),
    ),
  /** Removes an external package (deployed models using it fail their acts with `package.unknown`). */
  remove: allowed('design')
    .input(z.object({ name: id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'package.remove', target: input.name }, async () => {
        const row = await ctx.services.engine.packages.get(input.name);
        if (row.run_as !== 'worker') throw new ActError('package.not_external', `package '${input.name}' is not an external package; only those can be removed`);
        return { removed: await ctx.services.engine.packages.remove(input.name) };
      }),
    ),
});
