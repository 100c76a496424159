/**
 * The single source of randomness for every mechanism. Production code uses the
 * operating system's CSPRNG; tests inject a seeded generator, which must never
 * protect a real release (a seeded generator makes the noise reproducible).
 */
export interface RandomSource {
  /** A uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** True when the source is seeded: outputs must then be stamped as not protected. */
  readonly deterministic: boolean;
}

const BUFFER_WORDS = 16384;

/** Buffered view over crypto.getRandomValues (Node's webcrypto and browsers alike). */
export class CryptoRandomSource implements RandomSource {
  readonly deterministic = false;
  private readonly buffer = new Uint32Array(BUFFER_WORDS);
  private index = BUFFER_WORDS;

  nextUint32(): number {
    if (this.index === BUFFER_WORDS) {
      globalThis.crypto.getRandomValues(this.buffer);
      this.index = 0;
    }
    return this.buffer[this.index++]!;
  }
}

/**
 * xoshiro128** seeded through splitmix32. Only for tests and for the CLI's
 * --test-seed switch, which requires CUSTOS_TEST_RANDOMNESS=1.
 */
export class SeededTestRandomSource implements RandomSource {
  readonly deterministic = true;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Replays fixed coin values u in [0,1): the spec's worked examples are written with such coins. */
export class ScriptedCoinSource implements RandomSource {
  readonly deterministic = true;
  private position = 0;
  constructor(private readonly coins: readonly number[]) {}
  nextUint32(): number {
    throw new Error('ScriptedCoinSource only answers coin draws');
  }
  nextCoin(): number {
    if (this.position >= this.coins.length) throw new Error('ScriptedCoinSource ran out of coins');
    return this.coins[this.position++]!;
  }
}
