/**
 * Password hashing with argon2id (@node-rs/argon2, PHC strings with their own salt and costs).
 *
 * State: the dummy hash that login verifies against when the user does not exist (so an unknown
 * name costs as much as a wrong password), computed once on first use.
 */
import { hash, verify, type Options } from '@node-rs/argon2';

/** argon2's costs; the defaults are the library's (19 MiB, 2 passes, 1 lane). Tests lower them. */
export interface PasswordHashing {
  /** KiB per lane. */
  memoryCost?: number;
  timeCost?: number;
  parallelism?: number;
}

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2 as NonNullable<Options['algorithm']>;

export class PasswordHasher {
  private readonly options: Options;
  private dummy: Promise<string> | undefined;

  constructor(costs: PasswordHashing = {}) {
    this.options = { ...costs, algorithm: ARGON2ID };
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
  }

  /** False for a wrong password and for a stored hash argon2 cannot read. */
  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of one verification and answers false. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('not a password of anyone');
    await this.verify(await this.dummy, password);
    return false;
  }
}
