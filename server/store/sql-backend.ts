/** The SQL dialects the Prisma store serves, on its own so statement files need not import the store. */
export type SqlBackend = 'sqlite' | 'postgresql';
