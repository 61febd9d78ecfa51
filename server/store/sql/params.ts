/**
 * The parameters of one statement, collected in the order its SQL text names them: `$1, $2 …` on
 * PostgreSQL, `?` on SQLite. Statement files build their text with a template literal, whose
 * placeholders are evaluated left to right, so the values line up with the slots.
 *
 * State: the values handed out so far.
 */
import type { SqlBackend } from '../sql-backend.ts';

export class Params {
  readonly values: unknown[] = [];

  constructor(readonly backend: SqlBackend) {}

  /** The placeholder of one value. */
  slot(value: unknown): string {
    this.values.push(value);
    return this.backend === 'postgresql' ? `$${this.values.length}` : '?';
  }

  /**
   * An epoch-ms bound on a BIGINT column, rounded as an integer column compares (where.ts does the
   * same): `floor` for `<=` and `>`, `ceil` for `<` and `>=`; `<= 5.5` is `<= 5`.
   */
  floorMs(value: number): string {
    return this.slot(BigInt(Math.floor(value)));
  }

  ceilMs(value: number): string {
    return this.slot(BigInt(Math.ceil(value)));
  }

  /** The parenthesised list of an `IN`; `(NULL)`, which no value is in, when there are none. */
  list(values: readonly unknown[]): string {
    return values.length === 0 ? '(NULL)' : `(${values.map((value) => this.slot(value)).join(', ')})`;
  }
}

/** `LIMIT n`, the count inlined as a checked positive integer. */
export function limit(count: number): string {
  if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError(`a query limit must be a positive integer, got ${count}`);
  return `LIMIT ${count}`;
}

/** `OFFSET n`, the count inlined as a checked integer (empty for 0). */
export function offset(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`a query offset must be a non-negative integer, got ${count}`);
  return count === 0 ? '' : ` OFFSET ${count}`;
}
