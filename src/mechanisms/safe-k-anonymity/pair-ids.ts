/**
 * Dense ids for pairs of 32-bit integers, reused many thousand times by the
 * lattice roll-up: an open-addressing table whose slots are marked with the
 * number of the current round, so starting a round costs nothing instead of
 * clearing the table.
 */
export class PairIds {
  /** Slot i holds [round, a, b, id] at 4i: one cache line per probe. */
  private readonly slots: Uint32Array;
  private mask = 15;
  private current = 0;
  count = 0;

  /** Room for up to `capacity` distinct pairs per round. */
  constructor(private readonly capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slots = new Uint32Array(size * 4);
  }

  /** Forgets every pair; ids start again at 0. At most `expected` pairs follow. */
  reset(expected: number): void {
    if (expected > this.capacity) throw new RangeError(`at most ${this.capacity} pairs fit`);
    // A table sized to this round stays in cache; older rounds' slots are told apart by their mark.
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.mask = size - 1;
    this.current++;
    this.count = 0;
    if (this.current === 0xffffffff) {
      for (let i = 0; i < this.slots.length; i += 4) this.slots[i] = 0;
      this.current = 1;
    }
  }

  /** The id of (a, b), new ones numbered in order of first appearance. */
  id(a: number, b: number): number {
    const { slots, mask, current } = this;
    const h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
    let slot = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const at = slot << 2;
      if (slots[at] !== current) {
        slots[at] = current;
        slots[at + 1] = a;
        slots[at + 2] = b;
        return (slots[at + 3] = this.count++);
      }
      if (slots[at + 1] === a && slots[at + 2] === b) return slots[at + 3]!;
      slot = (slot + 1) & mask;
    }
  }
}

/** The same for small products a·cardinality + b ≤ capacity: a direct slot per pair, no hashing. */
export class DensePairIds {
  private readonly ids: Uint32Array;
  private readonly round: Uint32Array;
  private current = 0;
  count = 0;

  constructor(readonly capacity: number) {
    this.ids = new Uint32Array(capacity);
    this.round = new Uint32Array(capacity);
  }

  reset(): void {
    this.current++;
    this.count = 0;
    if (this.current === 0xffffffff) {
      this.round.fill(0);
      this.current = 1;
    }
  }

  id(a: number, b: number, cardinality: number): number {
    const slot = a * cardinality + b;
    if (this.round[slot] !== this.current) {
      this.round[slot] = this.current;
      return (this.ids[slot] = this.count++);
    }
    return this.ids[slot]!;
  }
}
