/** How the migration dialog counts processes in words: "1 process", "50 processes". */
export const processes = (n: number): string => (n === 1 ? '1 process' : `${n} processes`);
