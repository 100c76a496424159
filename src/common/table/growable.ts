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
    const next = new Uint32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** The filled part, trimmed to its length (copies). */
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
