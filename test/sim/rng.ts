/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32), so a simulation seed
 * reproduces the same models, the same client choices and the same engine ids on every run.
 * State: four 32-bit words, advanced by every draw.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = split();
    this.b = split();
    this.c = split();
    this.d = split();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.float() * items.length)];
  }

  /** One of the keys, drawn with the given weights (zero weights never win). */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((sum, [, w]) => sum + Math.max(0, w), 0);
    let roll = this.float() * total;
    for (const [key, w] of entries) {
      if (w <= 0) continue;
      roll -= w;
      if (roll < 0) return key;
    }
    return entries.filter(([, w]) => w > 0).at(-1)![0];
  }

  /** A child generator: its own stream, derived from this one (draws here do not shift it). */
  fork(): Rng {
    return new Rng(this.next());
  }

  /** An id source for the engine (`0-9a-zA-Z`), deterministic for this stream. */
  ids(): (len: number) => string {
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    return (len) => {
      let out = '';
      for (let i = 0; i < len; i++) out += alphabet[this.next() % alphabet.length];
      return out;
    };
  }
}
