/**
 * The distinct tuples of local suppression, indexed so that the greedy's two questions are answered
 * by hash lookups instead of a scan over every tuple:
 * - fk of a tuple: the records compatible with it (equal or a wildcard in every column);
 * - the nearest tuples of a problem record at distance 1 or 2 (columns where both are non-wildcard and differ).
 *
 * Tuples are grouped by their wildcard pattern W (a bit per column). Two tuples of patterns W0 and W1 are
 * compared on the columns C = not(W0 ∪ W1) only, so "compatible" means equal on C, and "at distance d
 * differing in the columns D ⊆ C" means equal on C \ D and different in each column of D. Each question
 * is therefore an exact-match lookup of a projection in a group, one hash index per (group, projected
 * columns), built when first asked and kept up to date as tuples appear. Every candidate a lookup
 * returns is checked column by column, so a hash collision can cost time but never change an answer.
 */

import { resized } from '../../common/table/growable.js';

/** The code of a suppressed cell (local-suppression.ts re-exports it). */
export const WILDCARD = 0xffffffff;

/** The most columns the indexed search handles: the patterns are bit masks of a 32-bit integer. */
export const MAX_INDEXED_COLUMNS = 30;

/**
 * Tuples with equal values in the projected columns, chained in hash buckets. It covers its group's
 * members up to `covered` and takes the newer ones in when it is next asked: most indexes are asked
 * rarely while tuples appear at every suppression, so adding each to every index at once cost more
 * than the lookups did.
 */
class ProjectionIndex {
  private head: Int32Array<ArrayBuffer>;
  private next: Int32Array<ArrayBuffer>;
  private ids: Int32Array<ArrayBuffer>;
  // Each slot's whole hash: a rebuild needs no codes, and a lookup passes over another projection's
  // slot in its bucket without comparing codes (a chain holds about as many of those as matches).
  private hashes: Int32Array<ArrayBuffer>;
  private size: number;
  private covered: number;
  /** The projected columns. */
  readonly columns: Int32Array;

  constructor(
    private readonly store: TupleStore,
    columns: readonly number[],
    private readonly members: readonly number[],
  ) {
    this.columns = Int32Array.from(columns);
    const n = members.length;
    const capacity = Math.max(16, n);
    this.ids = new Int32Array(capacity);
    this.hashes = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    for (let i = 0; i < n; i++) {
      this.ids[i] = members[i]!;
      this.hashes[i] = store.hash(members[i]!, this.columns);
    }
    this.size = this.covered = n;
    this.head = new Int32Array(bucketCount(n));
    this.chainByBucket();
  }

  /** Adds the group's members that appeared since the index was last asked. */
  private catchUp(): void {
    const members = this.members;
    while (this.covered < members.length) this.add(members[this.covered++]!);
  }

  private add(t: number): void {
    if (this.size === this.ids.length) {
      this.ids = resized(this.ids, this.ids.length * 2);
      this.next = resized(this.next, this.next.length * 2);
      this.hashes = resized(this.hashes, this.hashes.length * 2);
    }
    const slot = this.size++;
    const h = this.store.hash(t, this.columns);
    this.ids[slot] = t;
    this.hashes[slot] = h;
    if (this.size > this.head.length) {
      this.head = new Int32Array(this.head.length * 2);
      this.chainByBucket();
      return;
    }
    const bucket = h & (this.head.length - 1);
    this.next[slot] = this.head[bucket]!;
    this.head[bucket] = slot;
  }

  /**
   * Every slot chained again, the slots first put in the order of their buckets (a stable radix sort
   * of the bucket numbers, 11 bits a pass), so that each bucket's chain runs through consecutive
   * slots. Chaining the members one by one read and wrote the bucket heads in random order, a miss
   * of the cache per member, and building the indexes of the first pass cost more than their lookups.
   */
  private chainByBucket(): void {
    const n = this.size;
    const mask = this.head.length - 1;
    const bits = Math.log2(this.head.length);
    let ids = this.ids;
    let hashes = this.hashes;
    let spareIds = new Int32Array(ids.length);
    let spareHashes = new Int32Array(ids.length);
    for (let shift = 0; shift < bits; shift += RADIX_BITS) {
      const digits = 1 << Math.min(RADIX_BITS, bits - shift);
      const starts = new Int32Array(digits);
      for (let i = 0; i < n; i++) starts[((hashes[i]! & mask) >>> shift) & (digits - 1)]!++;
      for (let d = 0, sum = 0; d < digits; d++) {
        const c = starts[d]!;
        starts[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const at = starts[((hashes[i]! & mask) >>> shift) & (digits - 1)]!++;
        spareIds[at] = ids[i]!;
        spareHashes[at] = hashes[i]!;
      }
      [ids, spareIds] = [spareIds, ids];
      [hashes, spareHashes] = [spareHashes, hashes];
    }
    this.ids = ids;
    this.hashes = hashes;
    const head = this.head.fill(-1);
    const next = this.next;
    for (let slot = n - 1; slot >= 0; slot--) {
      const bucket = hashes[slot]! & mask;
      next[slot] = head[bucket]!;
      head[bucket] = slot;
    }
  }

  /**
   * Whether a tuple with records is equal to tuple `o` in the projected columns and differs from it in
   * column j, and in column l too unless l is -1: a nearest tuple at distance 1 or 2.
   */
  hasLiveDiffering(o: number, j: number, l: number): boolean {
    this.catchUp();
    const store = this.store;
    const flat = store.codes;
    const count = store.count;
    const m = store.m;
    const columns = this.columns;
    const base = o * m;
    const atJ = flat[base + j]!;
    const atL = l < 0 ? 0 : flat[base + l]!;
    const h = store.hash(o, columns);
    let probes = 1;
    for (let slot = this.head[h & (this.head.length - 1)]!; slot >= 0; slot = this.next[slot]!) {
      probes++;
      if (this.hashes[slot] !== h) continue;
      const t = this.ids[slot]!;
      const at = t * m;
      if (store.equalOn(o, t, columns) && count[t]! > 0 && flat[at + j] !== atJ && (l < 0 || flat[at + l] !== atL)) {
        store.probes += probes;
        return true;
      }
    }
    store.probes += probes;
    return false;
  }
}

/**
 * The records of a group per distinct projection, counted once: fk asks, for every tuple, how many
 * records of each group match it on the compared columns, and a tuple with many wildcards matches
 * most of a group, so summing the matches one by one would cost a scan of the group per such tuple.
 */
class ProjectionTotals {
  private readonly head: Int32Array;
  // Typed arrays sized for every source (each distinct projection takes one slot): no growing.
  private readonly next: Int32Array;
  private readonly reps: Int32Array;
  private readonly totals: Float64Array;
  /** Distinct projections: the slots in use. */
  private slots = 0;
  readonly columns: Int32Array;

  private constructor(
    private readonly store: TupleStore,
    /** The projected columns as a bit mask. */
    mask: number,
    sources: number,
  ) {
    this.columns = Int32Array.from(columnList(mask, store.m));
    this.head = new Int32Array(bucketCount(sources)).fill(-1);
    this.next = new Int32Array(sources);
    this.reps = new Int32Array(sources);
    this.totals = new Float64Array(sources);
  }

  /** The totals of a group's members (the members without records left out). */
  static ofMembers(store: TupleStore, mask: number, members: readonly number[]): ProjectionTotals {
    const out = new ProjectionTotals(store, mask, members.length);
    for (const t of members) if (store.count[t]! > 0) out.add(t, store.count[t]!);
    return out;
  }

  /**
   * The totals over fewer columns, from these: each of these projections is a set of records equal on
   * a superset of the columns, so it adds to one projection there. A projection on fewer columns has
   * fewer distinct values, so this reads far fewer entries than the group has members.
   */
  coarser(mask: number): ProjectionTotals {
    const out = new ProjectionTotals(this.store, mask, this.slots);
    for (let slot = 0; slot < this.slots; slot++) out.add(this.reps[slot]!, this.totals[slot]!);
    return out;
  }

  private add(t: number, records: number): void {
    const store = this.store;
    const columns = this.columns;
    const bucket = store.hash(t, columns) & (this.head.length - 1);
    let slot = this.head[bucket]!;
    while (slot >= 0 && !store.equalOn(this.reps[slot]!, t, columns)) slot = this.next[slot]!;
    if (slot >= 0) {
      this.totals[slot]! += records;
    } else {
      slot = this.slots++;
      this.reps[slot] = t;
      this.totals[slot] = records;
      this.next[slot] = this.head[bucket]!;
      this.head[bucket] = slot;
    }
  }

  get size(): number {
    return this.slots;
  }

  /** Records of the group equal to tuple o in the projected columns. */
  total(o: number): number {
    const store = this.store;
    store.probes++;
    for (let slot = this.head[store.hash(o, this.columns) & (this.head.length - 1)]!; slot >= 0; slot = this.next[slot]!) {
      store.probes++;
      if (store.equalOn(this.reps[slot]!, o, this.columns)) return this.totals[slot]!;
    }
    return 0;
  }
}

/** Bits of the bucket number sorted per pass of chainByBucket: 2,048 counters, within the first cache. */
const RADIX_BITS = 11;

function bucketCount(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}


/** The tuples of one wildcard pattern, and the indexes asked of them so far. */
interface Group {
  readonly pattern: number;
  members: number[];
  readonly indexes: Map<number, ProjectionIndex>;
  /** Records in the group's tuples: a group with none is skipped. */
  records: number;
}

/** The records' distinct tuples (row-major codes), their record counts and wildcard groups. */
export class TupleStore {
  private flat: Uint32Array;
  readonly count: number[] = [];
  readonly patternOf: number[] = [];
  readonly tupleOf: Uint32Array;
  /** Lookups made and candidates looked at: the indexed search's work. */
  probes = 0;
  // Every tuple by its whole value: hash buckets chained through `chain` (one entry per tuple).
  private buckets = new Int32Array(1 << 16).fill(-1);
  private chain = new Int32Array(1 << 16);
  private readonly groups = new Map<number, Group>();
  private readonly groupList: Group[] = [];
  private readonly scratch: number[];

  constructor(
    codes: readonly Uint32Array[],
    rowCount: number,
    readonly m: number,
  ) {
    this.flat = new Uint32Array(Math.max(16, rowCount) * m);
    this.tupleOf = new Uint32Array(rowCount);
    this.scratch = new Array<number>(m).fill(0);
    const tuple = new Array<number>(m);
    for (let r = 0; r < rowCount; r++) {
      for (let j = 0; j < m; j++) tuple[j] = codes[j]![r]!;
      const t = this.find(tuple);
      this.count[t]!++;
      this.groups.get(this.patternOf[t]!)!.records++;
      this.tupleOf[r] = t;
    }
  }

  get size(): number {
    return this.count.length;
  }

  /** Row-major codes of every tuple (tuple t at t·m). */
  get codes(): Uint32Array {
    return this.flat;
  }

  /** Record r's cell in column j becomes a wildcard: the record moves to that tuple. */
  suppress(r: number, j: number): void {
    const from = this.tupleOf[r]!;
    const tuple = this.scratch;
    for (let c = 0; c < this.m; c++) tuple[c] = this.flat[from * this.m + c]!;
    tuple[j] = WILDCARD;
    const to = this.find(tuple);
    this.count[from]!--;
    this.groups.get(this.patternOf[from]!)!.records--;
    this.count[to]!++;
    this.groups.get(this.patternOf[to]!)!.records++;
    this.tupleOf[r] = to;
  }

  hash(t: number, columns: ArrayLike<number>): number {
    const flat = this.flat;
    const base = t * this.m;
    let h = HASH_START;
    for (let c = 0; c < columns.length; c++) h = mixCode(h, flat[base + columns[c]!]!);
    return h;
  }

  equalOn(a: number, b: number, columns: ArrayLike<number>): boolean {
    const flat = this.flat;
    const m = this.m;
    for (let c = 0; c < columns.length; c++) if (flat[a * m + columns[c]!] !== flat[b * m + columns[c]!]) return false;
    return true;
  }

  /**
   * fk of every tuple with records, or of the tuples `wanted` marks only (the others are left 0): the
   * records in tuples compatible with it, its own included. The counts are read as they are now; the
   * totals per projection are built for this call and dropped.
   */
  frequencies(wanted?: Uint8Array): Float64Array {
    this.compact();
    const out = new Float64Array(this.size);
    // Per group, its totals per set of compared columns, for this call only.
    const totals = this.groupList.map(() => new Map<number, ProjectionTotals>());
    for (const own of this.groupList) {
      if (own.records === 0) continue;
      const asked = wanted ? own.members.filter((o) => wanted[o] === 1 && this.count[o]! > 0) : own.members.filter((o) => this.count[o]! > 0);
      if (asked.length === 0) continue;
      for (let g = 0; g < this.groupList.length; g++) {
        const group = this.groupList[g]!;
        if (group.records === 0) continue;
        // A group's tuples are distinct and share their wildcards: in its own group a tuple matches itself only.
        if (group === own) {
          for (const o of asked) out[o]! += this.count[o]!;
          continue;
        }
        const columns = this.full & ~(own.pattern | group.pattern);
        let index = totals[g]!.get(columns);
        if (!index) {
          index = totalsFrom(totals[g]!, columns) ?? ProjectionTotals.ofMembers(this, columns, group.members);
          totals[g]!.set(columns, index);
        }
        for (const o of asked) out[o]! += index.total(o);
      }
    }
    return out;
  }

  /**
   * The nearest tuples of tuple o at distance 1, else 2, and the first column of `order` in which one
   * of them differs from o; null when no tuple lies at distance 1 or 2 (the caller scans then), so the
   * answer is the scan's answer wherever this returns one.
   */
  nearestColumn(o: number, order: readonly number[]): number | null {
    const w0 = this.patternOf[o]!;
    // Distance 1: the first column (in order) with a tuple equal elsewhere on C and different there.
    for (const j of order) {
      if ((w0 >>> j) & 1) continue;
      for (const group of this.groupList) {
        if (group.records === 0 || (group.pattern >>> j) & 1) continue;
        const compared = this.full & ~(w0 | group.pattern);
        if (this.index(group, compared & ~(1 << j)).hasLiveDiffering(o, j, -1)) return j;
      }
    }
    // Distance 2: column j (in order) with a tuple equal elsewhere on C and different in j and in some
    // l; pairs whose other column comes earlier in order were asked already, and found nothing.
    for (let a = 0; a < order.length; a++) {
      const j = order[a]!;
      if ((w0 >>> j) & 1) continue;
      for (let b = a + 1; b < order.length; b++) {
        const l = order[b]!;
        if ((w0 >>> l) & 1) continue;
        for (const group of this.groupList) {
          if (group.records === 0 || ((group.pattern >>> j) & 1) || ((group.pattern >>> l) & 1)) continue;
          const compared = this.full & ~(w0 | group.pattern);
          if (this.index(group, compared & ~(1 << j) & ~(1 << l)).hasLiveDiffering(o, j, l)) return j;
        }
      }
    }
    return null;
  }

  /**
   * Drops from every group the tuples no record holds any more (most of the first pass's, once its
   * records moved to wildcard tuples), and the indexes over them, which are built again when asked.
   */
  private compact(): void {
    for (const group of this.groupList) {
      const live = group.members.filter((t) => this.count[t]! > 0);
      if (live.length === group.members.length) continue;
      group.members = live;
      group.indexes.clear();
    }
  }

  private get full(): number {
    return this.m === 32 ? -1 : (1 << this.m) - 1;
  }

  private index(group: Group, columns: number): ProjectionIndex {
    let index = group.indexes.get(columns);
    if (!index) {
      index = new ProjectionIndex(this, columnList(columns, this.m), group.members);
      group.indexes.set(columns, index);
    }
    return index;
  }

  private find(tuple: readonly number[]): number {
    const m = this.m;
    let h = HASH_START;
    for (let j = 0; j < m; j++) h = mixCode(h, tuple[j]!);
    const bucket = h & (this.buckets.length - 1);
    const flat = this.flat;
    search: for (let t = this.buckets[bucket]!; t >= 0; t = this.chain[t]!) {
      for (let j = 0; j < m; j++) if (flat[t * m + j] !== tuple[j]) continue search;
      return t;
    }
    const t = this.count.length;
    {
      if ((t + 1) * this.m > this.flat.length) {
        const grown = new Uint32Array(this.flat.length * 2);
        grown.set(this.flat);
        this.flat = grown;
      }
      this.flat.set(tuple, t * this.m);
      this.count.push(0);
      let pattern = 0;
      for (let j = 0; j < this.m; j++) if (tuple[j] === WILDCARD) pattern |= 1 << j;
      this.patternOf.push(pattern);
      if (t === this.chain.length) this.chain = resized(this.chain, this.chain.length * 2);
      this.chain[t] = this.buckets[bucket]!;
      this.buckets[bucket] = t;
      if (t + 1 > this.buckets.length) this.rehashAll();
      let group = this.groups.get(pattern);
      if (!group) {
        group = { pattern, members: [], indexes: new Map(), records: 0 };
        this.groups.set(pattern, group);
        this.groupList.push(group);
      }
      group.members.push(t);
    }
    return t;
  }

  /** Twice the buckets, every tuple chained again. */
  private rehashAll(): void {
    const m = this.m;
    const flat = this.flat;
    this.buckets = new Int32Array(this.buckets.length * 2).fill(-1);
    const mask = this.buckets.length - 1;
    for (let t = 0; t < this.count.length; t++) {
      let h = HASH_START;
      for (let j = 0; j < m; j++) h = mixCode(h, flat[t * m + j]!);
      this.chain[t] = this.buckets[h & mask]!;
      this.buckets[h & mask] = t;
    }
  }
}

/** One hash of codes for every index here (a whole tuple's and a projection's alike): FNV-style, with a shift folded in. */
// Signed, as mixCode's results are and the indexes store hashes: over no columns a hash is HASH_START itself.
const HASH_START = 0x811c9dc5 | 0;
const mixCode = (h: number, code: number): number => Math.imul(h ^ code, 0x01000193) ^ (h >>> 15);

/** Totals over `columns` from the smallest of a group's totals over more columns, if it has one. */
function totalsFrom(built: ReadonlyMap<number, ProjectionTotals>, columns: number): ProjectionTotals | undefined {
  let parent: ProjectionTotals | undefined;
  for (const [mask, totals] of built) if ((mask & columns) === columns && (!parent || totals.size < parent.size)) parent = totals;
  return parent?.coarser(columns);
}

/** The columns of a bit mask, in order. */
function columnList(columns: number, m: number): number[] {
  const list: number[] = [];
  for (let j = 0; j < m; j++) if ((columns >>> j) & 1) list.push(j);
  return list;
}
