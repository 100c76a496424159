import { getAsset } from 'node:sea';

/** The DejaVu faces, embedded in the single-file executable as assets (scripts/build-standalone.mjs). */
export function reportFonts(): { readonly regular: string | Buffer; readonly bold: string | Buffer; readonly mono: string | Buffer } {
  const face = (name: string): Buffer => Buffer.from(getAsset(name));
  return { regular: face('DejaVuSans.ttf'), bold: face('DejaVuSans-Bold.ttf'), mono: face('DejaVuSansMono.ttf') };
}
