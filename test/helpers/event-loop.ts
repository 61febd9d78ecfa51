/** Measures how long the event loop was kept from turning (tests of user code off the engine's thread). */

/** The longest gap between the turns of a 5 ms interval while `body` ran, in ms. */
export async function longestStall(body: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await body();
  } finally {
    clearInterval(timer);
  }
  // the body may have ended without one turn of the loop in between
  return Math.max(longest, performance.now() - last);
}
