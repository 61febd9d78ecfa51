/**
 * The Prisma side of a write-only batch's store (a client's shape, typed by the store that uses
 * it): every model delegate's method (reads, deleteWhere) calls `refuse` with what was asked.
 */
export const refusingClient = (refuse: (what: string) => never): object =>
  new Proxy({}, {
    get: (_target, prop) => (typeof prop === 'string' ? new Proxy({}, { get: (_d, method) => () => refuse(`${String(method)} ${prop}`) }) : undefined),
  });
