/**
 * The V8 flags acts-studio runs with, one source for every place that starts it:
 * - `npm start` passes SERVER_NODE_FLAGS (package.json's `start`), and so do the tests and
 *   benchmarks that run the real server as a process of its own (test/helpers/server-process.ts),
 *   so they measure what `npm start` runs. `npm run bench:http` runs with them too: its baseline,
 *   the engine's own starts, runs in the benchmark's process, and the API's starts are given as a
 *   share of it, so both sides run with the same heap.
 * - `npm run bench:peers` runs each subject with ENGINE_NODE_FLAGS (the engine in the
 *   benchmark's process, as a library; the peers' processes get the same flags).
 * - The `acts` command (bin/acts.mjs) sets ENGINE_NODE_FLAGS as it starts, before the engine's
 *   code runs (the garbage collector reads them as it goes; the semi-space size is fixed by then).
 *
 * `--no-allocation-site-pretenuring` (ENGINE_NODE_FLAGS): V8 allocates the objects of an
 * allocation site (an object or array literal, a class's field initialisers) straight in the old
 * generation once most of them survived a scavenge. A job's tasks, rows and their containers live
 * across a store round trip, so the sites of `Task`'s fields and of the process rows handed to the
 * writer were pretenured (`--trace-pretenuring-statistics`: 15 sites, 100 % of their objects
 * surviving). Those objects then die in the old generation, and until the next mark-compact every
 * young object they point to (a task's data, the next job's values) counts as alive at each
 * scavenge and is promoted too: a workflow on PostgreSQL promoted ~16 KB, ~7 KB without
 * pretenuring (`--trace-gc-nvp`, 8,000 workflows: 128–129 MB → 55–57 MB). Measured in
 * bench:peers' runs (8,000 workflows, 5 alternating runs each, medians): PostgreSQL 2,608 → 2,864
 * workflows/s and 0.340 → 0.281 ms of CPU a workflow; SQLite 3,428 → 3,717; memory 6,309 → 6,863.
 *
 * `--max-semi-space-size=32` (SERVER_NODE_FLAGS only; MiB, Node 20's default is 16): the young
 * generation may grow to twice the default. Under API load every call's request, response,
 * context and promises live until its batch is written (tens of ms with 64 callers), so with the
 * default semi-space many of them survived two scavenges and were promoted, and the old generation
 * filled with them: garbage collection was 13-21 % of the server's main thread during bench:http's
 * starts (profile), 9-11 % with this flag. It costs up to 32 MiB more of young generation under
 * load (it grows only when objects survive). The engine alone gains nothing from it (bench:peers:
 * the memory store's runs were slower, the durable ones unchanged), so ENGINE_NODE_FLAGS leave it out.
 */
export const ENGINE_NODE_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

export const SERVER_NODE_FLAGS: readonly string[] = [...ENGINE_NODE_FLAGS, '--max-semi-space-size=32'];
