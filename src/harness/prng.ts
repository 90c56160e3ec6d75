/**
 * A small seeded pseudo-random number generator (sfc32, seeded through splitmix32) and string hashing,
 * so that the local service's synthetic data is the same on every run and every machine.
 *
 * @packageDocumentation
 */

/** A deterministic source of random values. */
export interface Rng {
  /**
   * Restarts the generator from a seed: it then gives the sequence `createRng(seed)` gives.
   *
   * @param seed - A number or any string.
   */
  reseed(seed: number | string): void;
  /** A float in `[0, 1)`. */
  next(): number;
  /** A 32-bit unsigned integer. */
  uint32(): number;
  /**
   * An integer in `[min, max]` (both inclusive).
   *
   * @param min - Smallest value.
   * @param max - Largest value.
   */
  int(min: number, max: number): number;
  /**
   * `true` with probability `p`.
   *
   * @param p - Probability in `[0, 1]`.
   */
  chance(p: number): boolean;
  /**
   * One element of a non-empty array, uniformly.
   *
   * @param items - The choices.
   */
  pick<T>(items: readonly T[]): T;
  /**
   * One element of a non-empty array, with probability proportional to its weight.
   *
   * @param items - The choices.
   * @param weights - Non-negative weights, one per item, not all zero.
   */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /**
   * A normally distributed value (Box–Muller).
   *
   * @param mean - Mean.
   * @param sd - Standard deviation.
   */
  normal(mean: number, sd: number): number;
}

/**
 * Hashes any number of strings and numbers into a 32-bit seed (FNV-1a over the parts, finished with a
 * murmur3 mix), for seeding a generator per entity (agent, address, …).
 *
 * @param parts - Values to hash, in order.
 * @returns A 32-bit unsigned integer.
 */
export function hashSeed(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === "number") {
      const low = part >>> 0;
      const high = Math.floor(part / 4294967296) >>> 0;
      h = Math.imul(h ^ 0x23 ^ low, 0x01000193);
      h = Math.imul(h ^ (low >>> 16) ^ high, 0x01000193);
    } else {
      for (let i = 0; i < part.length; i++) {
        h ^= part.charCodeAt(i);
        h = Math.imul(h, 0x01000193);
      }
    }
    h ^= 0x1f;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Creates a generator from a seed. The same seed always gives the same sequence.
 *
 * @param seed - A number (its low 32 bits and sign are used) or any string.
 * @returns The generator.
 */
export function createRng(seed: number | string): Rng {
  return new Sfc32(typeof seed === "string" ? hashSeed(seed) : hashSeed(Math.trunc(seed)));
}

/** The splitmix32 output function. */
function mix32(state: number): number {
  let z = Math.imul(state ^ (state >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) >>> 0;
}

/** sfc32, its state seeded by splitmix32. */
class Sfc32 implements Rng {
  private sa: number;
  private sb: number;
  private sc: number;
  private sd: number;

  constructor(seed: number) {
    this.sa = this.sb = this.sc = this.sd = 0;
    this.#init(seed);
  }

  reseed(seed: number | string): void {
    this.#init(typeof seed === "string" ? hashSeed(seed) : hashSeed(Math.trunc(seed)));
  }

  #init(seed: number): void {
    let s = seed | 0;
    s = (s + 0x9e3779b9) | 0;
    this.sa = mix32(s);
    s = (s + 0x9e3779b9) | 0;
    this.sb = mix32(s);
    s = (s + 0x9e3779b9) | 0;
    this.sc = mix32(s);
    s = (s + 0x9e3779b9) | 0;
    this.sd = mix32(s);
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.sa + this.sb) | 0) + this.sd) | 0;
    this.sd = (this.sd + 1) | 0;
    this.sa = this.sb ^ (this.sb >>> 9);
    this.sb = (this.sc + (this.sc << 3)) | 0;
    this.sc = (this.sc << 21) | (this.sc >>> 11);
    this.sc = (this.sc + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.uint32() / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  normal(mean: number, sd: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/**
 * A deterministic 20-byte hex address (lowercase, `0x`-prefixed) derived from a namespace and parts.
 *
 * @param parts - What identifies the address (for example the population seed and an owner index).
 * @returns The address.
 */
export function syntheticAddress(...parts: readonly (string | number)[]): `0x${string}` {
  const rng = new Sfc32(hashSeed(...parts));
  let hex = "0x";
  for (let i = 0; i < 5; i++) {
    const word = rng.uint32();
    hex += HEX_BYTES[word >>> 24]! + HEX_BYTES[(word >>> 16) & 0xff]! + HEX_BYTES[(word >>> 8) & 0xff]! + HEX_BYTES[word & 0xff]!;
  }
  return hex as `0x${string}`;
}

const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
