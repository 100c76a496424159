type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/** A typed array of the same kind and `length` entries holding the first `keep` entries of `array`. */
export function resized<T extends NumberArray>(array: T, length: number, keep = array.length): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array.subarray(0, keep));
  return next;
}

/** An append-only Uint32Array that doubles its capacity. */
export class GrowableUint32 {
  private data: Uint32Array;
  length = 0;
  constructor(initialCapacity = 1024) {
    this.data = new Uint32Array(Math.max(16, initialCapacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length * 2);
    this.data[this.length++] = value;
  }
  pushRepeated(value: number, times: number): void {
    if (this.length + times > this.data.length) this.grow(Math.max(this.length * 2, this.length + times));
    // Most calls add one or two (a release's trials): a loop beats a call into fill.
    if (times <= 8) for (let i = 0; i < times; i++) this.data[this.length + i] = value;
    else this.data.fill(value, this.length, this.length + times);
    this.length += times;
  }
  /** Appends every value, in order. */
  pushAll(values: Uint32Array): void {
    if (this.length + values.length > this.data.length) this.grow(Math.max(this.length * 2, this.length + values.length));
    if (values.length <= 8) for (let i = 0; i < values.length; i++) this.data[this.length + i] = values[i]!;
    else this.data.set(values, this.length);
    this.length += values.length;
  }
  /** Appends map[code] for every code, in order. */
  pushMapped(codes: Uint32Array, map: Uint32Array): void {
    if (this.length + codes.length > this.data.length) this.grow(Math.max(this.length * 2, this.length + codes.length));
    const data = this.data;
    let at = this.length;
    for (let r = 0; r < codes.length; r++) data[at++] = map[codes[r]!]!;
    this.length = at;
  }
  private grow(capacity: number): void {
    this.data = resized(this.data, capacity, this.length);
  }
  /** The filled part, trimmed to its length (copies). */
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** Codes in the narrowest array that holds them (GrowableCodes). */
export type CompactCodes = Uint8Array | Uint16Array | Uint32Array;

/**
 * An append-only array of dictionary codes, one byte each while every code is below 256, two below
 * 65,536, four beyond: a reader holds a column's codes as they arrive, and at census scale those
 * are most of its memory (50M rows × 10 columns: 0.5 GB in bytes, 2 GB as Uint32 before the
 * doubling's slack). It widens once, when a larger code first arrives; values never change.
 */
export class GrowableCodes {
  private data: CompactCodes;
  /** The largest code the current width holds. */
  private max = 0xff;
  length = 0;
  constructor(initialCapacity = 1024) {
    this.data = new Uint8Array(Math.max(16, initialCapacity));
  }
  push(code: number): void {
    if (code > this.max) this.widen(code);
    if (this.length === this.data.length) this.grow(this.length * 2);
    this.data[this.length++] = code;
  }
  /** Appends map[code] for every code, in order. */
  pushMapped(codes: CompactCodes, map: Uint32Array): void {
    let largest = 0;
    for (let i = 0; i < map.length; i++) if (map[i]! > largest) largest = map[i]!;
    if (largest > this.max) this.widen(largest);
    if (this.length + codes.length > this.data.length) this.grow(Math.max(this.length * 2, this.length + codes.length));
    const data = this.data;
    let at = this.length;
    for (let r = 0; r < codes.length; r++) data[at++] = map[codes[r]!]!;
    this.length = at;
  }
  private widen(code: number): void {
    const next = code > 0xffff ? new Uint32Array(this.data.length) : new Uint16Array(this.data.length);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
    this.max = code > 0xffff ? 0xffffffff : 0xffff;
  }
  private grow(capacity: number): void {
    this.data = resized(this.data, capacity, this.length);
  }
  /** How many of the codes are `code`: read in their compact width (a quarter of the bytes of the Uint32 column toArray makes). */
  countOf(code: number): number {
    const data = this.data;
    let n = 0;
    for (let i = 0; i < this.length; i++) if (data[i] === code) n++;
    return n;
  }
  /** The filled part in its compact width (copies). */
  toCompact(): CompactCodes {
    return this.data.slice(0, this.length);
  }
  /**
   * The filled part as Uint32 codes, as a table's column holds them (copies). `shared`: in memory
   * other threads can read (where the platform has it), so a helper thread is handed the column
   * itself instead of a copy (a million rows × 10 columns cost a run a quarter of a second to copy).
   */
  toArray(shared = false): Uint32Array {
    const bytes = this.length * Uint32Array.BYTES_PER_ELEMENT;
    const out = shared && typeof SharedArrayBuffer === 'function' ? new Uint32Array(new SharedArrayBuffer(bytes)) : new Uint32Array(this.length);
    out.set(this.data.subarray(0, this.length));
    return out;
  }
}
