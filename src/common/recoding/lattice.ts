/**
 * The lattice of generalization levels: one level per column, column j ranging over
 * 0 … depths[j] − 1. Nodes are numbered in mixed radix with the first column varying slowest,
 * the order both lattice searches (safe k-anonymity's private choice and global recoding's
 * optimum) list and index them in.
 */

export function latticeSizeOf(depths: readonly number[]): number {
  return depths.reduce((n, d) => n * d, 1);
}

/** Every node, the first column varying slowest. */
export function latticeNodesOf(depths: readonly number[]): number[][] {
  let nodes: number[][] = [[]];
  for (const depth of depths) nodes = nodes.flatMap((prefix) => Array.from({ length: depth }, (_, level) => [...prefix, level]));
  return nodes;
}

/** The node at a position of latticeNodesOf order, without listing them all. */
export function nodeAtIndex(depths: readonly number[], index: number): number[] {
  const node = new Array<number>(depths.length);
  for (let j = depths.length - 1; j >= 0; j--) {
    const size = depths[j]!;
    node[j] = index % size;
    index = Math.floor(index / size);
  }
  return node;
}

/** The sum of a node's levels: its height in the lattice. */
export function nodeHeight(node: readonly number[]): number {
  return node.reduce((sum, level) => sum + level, 0);
}
