import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The standalone build replaces this module with report-fonts.standalone.ts (fonts as embedded assets).
const require = createRequire(import.meta.url);

/** The DejaVu faces the PDF report embeds (they cover ε, δ, β, ≤ and ⌊⌋), as PDFKit accepts them. */
export function reportFonts(): { readonly regular: string | Buffer; readonly bold: string | Buffer; readonly mono: string | Buffer } {
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  return { regular: join(dir, 'DejaVuSans.ttf'), bold: join(dir, 'DejaVuSans-Bold.ttf'), mono: join(dir, 'DejaVuSansMono.ttf') };
}
