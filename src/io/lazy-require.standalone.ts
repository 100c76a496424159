// The standalone build replaces lazy-require.ts with this module: a single-file executable has no
// node_modules to resolve names in, so each package the readers and writers load on first use is
// named here literally and bundled; the bundle still evaluates it only when first asked for.
/* eslint-disable @typescript-eslint/no-require-imports -- a literal require is what lets the bundler include the package and still defer loading it */
const PACKAGES = new Map<string, () => unknown>([
  ['xlsx', () => require('xlsx')],
  ['pdfkit', () => require('pdfkit')],
  ['hyparquet/src/datapage.js', () => require('hyparquet/src/datapage.js')],
  ['hyparquet/src/plain.js', () => require('hyparquet/src/plain.js')],
  ['hyparquet/src/delta.js', () => require('hyparquet/src/delta.js')],
  ['hyparquet/src/encoding.js', () => require('hyparquet/src/encoding.js')],
  ['hyparquet/src/metadata.js', () => require('hyparquet/src/metadata.js')],
  ['hyparquet/src/column.js', () => require('hyparquet/src/column.js')],
  ['hyparquet-compressors', () => require('hyparquet-compressors')],
  ['hyparquet-writer', () => require('hyparquet-writer')],
]);
/* eslint-enable @typescript-eslint/no-require-imports */

export function lazyRequire<T>(name: string): () => T {
  const load = PACKAGES.get(name);
  if (!load) throw new Error(`the standalone build does not bundle the package "${name}"; add it to src/io/lazy-require.standalone.ts`);
  let loaded: T | undefined;
  return () => (loaded ??= load() as T);
}
