#!/usr/bin/env node
// The `acts` command line. TypeScript sources are loaded through tsx so that no build step is
// needed after `npm install`. The engine's V8 flags (server/node-flags.ts) are set before any of
// its code runs: they steer the garbage collector, which reads them as it goes.
import v8 from 'node:v8';
import { register } from 'tsx/esm/api';

register();
const { ENGINE_NODE_FLAGS } = await import('../server/node-flags.ts');
v8.setFlagsFromString(ENGINE_NODE_FLAGS.join(' '));
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
