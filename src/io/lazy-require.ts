import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on first use. SheetJS and PDFKit together
 * cost about 0.3 s to load, which every CLI command paid at start-up, before it
 * could even catch Ctrl-C; most commands never touch them.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
