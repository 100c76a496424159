import { dirname, isAbsolute, resolve } from 'node:path';

/**
 * The page's release folder and the job's internal folder as the host writes them: a relative
 * path (a bare name typed in the wizard) is taken as beside the input file, which is where the
 * wizard proposes its folders and where a person expects a name without a folder to land, not
 * beside wherever the app was started. Absolute paths, and jobs without an input path, are
 * unchanged; the job is copied, never modified.
 */
export function outputFoldersBesideInput(job: unknown, outDir: string, baseDir: string): { job: unknown; outDir: string } {
  const input = (job as { input?: { path?: unknown } } | null)?.input?.path;
  if (typeof input !== 'string') return { job, outDir };
  const inputFolder = dirname(resolve(baseDir, input));
  const besideInput = (path: string): string => (isAbsolute(path) ? path : resolve(inputFolder, path));
  const output = (job as { output?: unknown }).output;
  const internalDir = typeof output === 'object' && output !== null ? (output as { internalDir?: unknown }).internalDir : undefined;
  const moved = typeof internalDir === 'string' && internalDir.trim() !== '' && !isAbsolute(internalDir) ? { ...(job as object), output: { ...(output as object), internalDir: besideInput(internalDir) } } : job;
  return { job: moved, outDir: besideInput(outDir) };
}
