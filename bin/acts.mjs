#!/usr/bin/env node
// The `acts` command line. TypeScript sources are loaded through tsx so that no build step is
// needed after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
