/** A field of a fixed-width row: where it starts and how many bytes it takes. */
export interface FieldPlace {
  readonly start: number;
  readonly length: number;
}

/**
 * The indexes of two fields of a fixed-width row that share bytes, if any. Writers lay fields side
 * by side; fields crafted to overlap decode the same bytes once each, so thousands of them over one
 * wide field cost gigabytes from a file of a megabyte.
 */
export function overlappingFields(fields: readonly FieldPlace[]): [number, number] | undefined {
  const order = fields.map((_, i) => i).filter((i) => fields[i]!.length > 0);
  order.sort((a, b) => fields[a]!.start - fields[b]!.start);
  for (let k = 1; k < order.length; k++) {
    const before = fields[order[k - 1]!]!;
    if (before.start + before.length > fields[order[k]!]!.start) return [order[k - 1]!, order[k]!];
  }
  return undefined;
}
