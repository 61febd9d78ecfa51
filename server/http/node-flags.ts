/**
 * The V8 flags the server runs with: `npm start` passes them (package.json's `start`), and so
 * do the tests and benchmarks that run the real server as a process of its own
 * (test/helpers/server-process.ts), so they measure what `npm start` runs. `npm run bench:http`
 * runs with them too: its baseline, the engine's own starts, runs in the benchmark's process, and
 * the API's starts are given as a share of it, so both sides run with the same heap.
 *
 * `--max-semi-space-size=32` (MiB; Node 20's default is 16): the young generation may grow to
 * twice the default. Under API load every call's request, response, context and promises live
 * until its batch is written (tens of ms with 64 callers), so with the default semi-space many of
 * them survived two scavenges and were promoted, and the old generation filled with them: garbage
 * collection was 13-21 % of the server's main thread during bench:http's starts (profile), 9-11 %
 * with this flag. It costs up to 32 MiB more of young generation under load (it grows only when
 * objects survive).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
