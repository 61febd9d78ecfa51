/**
 * Waits (real time) until `find` yields something other than `undefined` or `false`, checking
 * every 20 ms up to `tries` times; resolves with it, or fails naming `what`. For effects that
 * arrive asynchronously from another instance or process (NOTIFY, socket events).
 */
export async function eventually<T>(find: () => T | undefined | false | Promise<T | undefined | false>, what: string, tries: number): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const found = await find();
    if (found !== undefined && found !== false) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting until ${what}`);
}
