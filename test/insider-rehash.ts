/**
 * What an insider does after changing files of a release: every checksum and size made to agree
 * again in report.json's output.files and in manifest.json, each file written as Custos writes it
 * (two-space JSON, a final newline), so only verify's content checks can tell.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Listing = { files: { name: string; sha256: string; bytes: number; rows?: number }[] };

/** One file's entry in a listing (a manifest, or a report's output.files) set to the file as it now is. */
export function rehashEntry(dir: string, listing: Listing, file: string): void {
  const entry = listing.files.find((f) => f.name === file);
  if (!entry || !existsSync(join(dir, file))) return;
  const bytes = readFileSync(join(dir, file));
  entry.sha256 = createHash('sha256').update(bytes).digest('hex');
  entry.bytes = bytes.length;
}

/** After `changed` files of the release folder changed: report.json's output.files, then the manifest. */
export function rehashRelease(dir: string, changed: readonly string[]): void {
  const reportPath = join(dir, 'report.json');
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { output: Listing };
  for (const file of changed) rehashEntry(dir, report.output, file);
  if (!changed.includes('report.json')) writeFileSync(reportPath, JSON.stringify(report, null, 2) + '\n');
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Listing;
  for (const file of [...changed, 'report.json']) rehashEntry(dir, manifest, file);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
}
