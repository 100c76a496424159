#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { basename, resolve } from 'node:path';
import { normalizeEncoding } from '../common/job/encoding.js';
import { InputError } from '../io/input/input-error.js';
import { readTable } from '../io/input/read-table.js';
import { renamedColumnsWarning } from '../io/input/table-builder.js';
import { describeFailure } from '../jobs/execute-request.js';
import { exitCodeOf, type JobFailure, type JobRequest } from '../jobs/job-request.js';
import { isLineOrQuote } from '../common/job/job-parts.js';
import { jsonReplacer } from '../jobs/json.js';
import { verifyRelease } from '../jobs/verify/verify-release.js';
import { startJob } from '../jobs/worker-host.js';
import { helperWorkerBeside, jobWorkerBeside } from '../jobs/bundled-scripts.js';
import { progressBar } from './progress-bar.js';
import { inspectJson, inspectText, reportText } from './summaries.js';
import { COMMAND_HELP, isCommand, USAGE } from './help.js';
import { SOFTWARE_VERSION } from '../jobs/version.js';
import { datedColumnInfo } from '../jobs/column-info.js';
import { ambiguousDatesNote, jobSkeleton, MAX_PROPOSED_VALUES, sortedValues, type SkeletonInput } from '../jobs/job-skeleton.js';
import { chainMethods, chainSkeleton } from '../jobs/chain/chain-skeleton.js';
import { readDateColumns } from '../io/input/date-columns.js';
import { DEFAULT_MECHANISM, isMechanismType, MECHANISM_DEFINITIONS } from '../mechanisms/definitions.js';
import { unknownMethodMessage } from '../common/method-names.js';
import { startComparison } from '../jobs/compare/compare-host.js';
import type { CompareRequest } from '../jobs/compare/compare-request.js';
import { parseGridAxis, plannedCandidates } from '../jobs/compare/candidates.js';
import { MAX_CANDIDATES, MAX_CANDIDATES_LIMIT } from '../common/compare/comparison.js';
import { comparisonText, compareProgressBar } from './compare-text.js';
import { formatCount } from '../common/format/numbers.js';

class UsageError extends Error {}

// For jobs, Ctrl-C is caught from the start of the command: before the worker runs it is
// remembered, then it cancels the job; a second Ctrl-C with no job to cancel exits at once.
// A closed terminal (SIGHUP) cancels the same way, so no staging folder is left behind.
let interrupted = false;
let onInterrupt: (() => void) | undefined;
function catchInterrupts(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (interrupted && !onInterrupt) process.exit(130);
      interrupted = true;
      onInterrupt?.();
    });
  }
}

function fail(failure: JobFailure, json: boolean): number {
  const code = exitCodeOf(failure.kind);
  if (json) process.stdout.write(JSON.stringify({ error: { code, ...failure } }, null, 2) + '\n');
  else {
    // Several problems are listed once, one a line (the message joins the same list for --json and the app).
    if (failure.issues && failure.issues.length > 1) {
      process.stderr.write(`custos: the job has ${failure.issues.length} problems:\n`);
      for (const issue of failure.issues) process.stderr.write(`  - ${issue}\n`);
    } else process.stderr.write(`custos: ${failure.message}\n`);
    const hint = adviceLine(failure);
    if (hint) process.stderr.write(`  ${hint}\n`);
  }
  return code;
}

/** What may fix an input problem, where the reader judged a reading option can (the wizard says the same in its words). */
function adviceLine(failure: JobFailure): string | undefined {
  switch (failure.advice) {
    case 'sheet':
      return `the workbook's sheets are ${(failure.sheets ?? []).map((s) => JSON.stringify(s)).join(', ')}: choose the one holding the table with --sheet (input.sheet in a job)`;
    case 'reading-options':
      return "the delimiter or the encoding may not be the file's: give them with --delimiter and --encoding (input.delimiter, input.encoding in a job), or fix the file";
    default:
      return undefined;
  }
}

function testSeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (process.env.CUSTOS_TEST_RANDOMNESS !== '1') {
    throw new UsageError('--test-seed is only accepted with CUSTOS_TEST_RANDOMNESS=1: a seeded generator must never protect a real release');
  }
  const seed = Number(value);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError('--test-seed must be a non-negative integer');
  return seed;
}

const READING_OPTIONS = {
  sheet: { type: 'string' }, delimiter: { type: 'string' }, encoding: { type: 'string' }, missing: { type: 'string' },
} as const;

/** The reading options of inspect and init, checked and turned into the reader's. */
function readingOptions(values: { sheet?: string | undefined; delimiter?: string | undefined; encoding?: string | undefined; missing?: string | undefined }) {
  const encoding = values.encoding ? normalizeEncoding(values.encoding) : undefined;
  if (values.encoding && !encoding) throw new UsageError(`unsupported encoding "${values.encoding}" (utf-8, utf-16le, utf-16be, windows-1252)`);
  const delimiter = values.delimiter === 'tab' || values.delimiter === '\\t' ? '\t' : values.delimiter;
  if (delimiter !== undefined && (delimiter.length !== 1 || isLineOrQuote(delimiter))) throw new UsageError('--delimiter must be one character other than a quote or a line break, or "tab"');
  const sheet = values.sheet === undefined ? null : /^\d+$/.test(values.sheet) ? Number(values.sheet) : values.sheet;
  return {
    ...(delimiter ? { delimiter } : {}),
    ...(encoding ? { encoding } : {}),
    sheet,
    missing: values.missing === undefined ? [''] : values.missing.split(','),
  };
}

function inspect(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...READING_OPTIONS, 'skip-bad-rows': { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const json = values.json === true;
  if (positionals.length !== 1) throw new UsageError('inspect needs exactly one FILE');
  const path = positionals[0]!;
  const reading = readingOptions(values);
  try {
    const imported = readTable(path, { ...reading, onBadRow: values['skip-bad-rows'] ? 'skip' : 'error', helperScript: helperWorkerBeside(import.meta.url) });
    process.stdout.write((json ? JSON.stringify(inspectJson(path, imported), null, 2) : inspectText(path, imported)) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof InputError) return fail(describeFailure(error), json);
    throw error;
  }
}

/** A job skeleton for a file on standard output: the roles the wizard would suggest and the method's defaults. */
function init(args: string[]): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...READING_OPTIONS, method: { type: 'string' } } });
  if (positionals.length !== 1) throw new UsageError('init needs exactly one FILE');
  // `--method A,B`: a chain of two methods (an identity step, then an attribute step).
  const named = (values.method ?? DEFAULT_MECHANISM).split(',').map((m) => m.trim());
  const unknown = named.find((m) => !isMechanismType(m));
  if (unknown !== undefined) throw new UsageError(`--method: ${unknownMethodMessage(unknown, MECHANISM_DEFINITIONS.map((d) => d.metadata))}`);
  const chain = named.length > 1 ? chainMethods(named) : undefined;
  if (chain && 'problem' in chain) throw new UsageError(`--method ${named.join(',')}: ${chain.problem.message}`);
  const method = named[0]!;
  if (!isMechanismType(method)) throw new UsageError(`--method: ${unknownMethodMessage(method, MECHANISM_DEFINITIONS.map((d) => d.metadata))}`);
  const path = positionals[0]!;
  const reading = readingOptions(values);
  // Malformed rows are listed in the notes, not a reason to write no job.
  const read = readTable(path, { ...reading, onBadRow: 'skip' });
  // Dates typed as text read as the wizard reads them (and the run): the same roles for the same column in CSV, a workbook or SPSS.
  // Each format found is written into input.dates, an ambiguous one asked about.
  const dated = readDateColumns(read, basename(path), undefined, new Set());
  const imported = dated.imported;
  const skeletonInput: SkeletonInput = {
    // Absolute: a job's paths are relative to the job file, and where that is saved is not known here.
    path: resolve(path),
    ...(imported.delimiter !== undefined ? { delimiter: imported.delimiter } : {}),
    ...(imported.encoding ? { encoding: imported.encoding } : {}),
    ...(imported.sheet ? { sheet: imported.sheet } : {}),
    missing: reading.missing,
    rows: imported.table.rowCount,
    columns: datedColumnInfo(dated),
    labelSets: new Map((imported.variables ?? []).flatMap((v) => (v.labelSet ? [[v.name, v.labelSet] as const] : []))),
    // Sorted: the order of the file's first occurrences would say which value came first.
    values: new Map(imported.table.columns.filter((c) => c.distinct <= MAX_PROPOSED_VALUES).map((c) => [c.name, sortedValues(c.dictionary.slice(1), c.type)] as const)),
    dates: { found: dated.read, ambiguous: dated.ambiguous },
  };
  const job = chain ? chainSkeleton(skeletonInput, chain.steps) : jobSkeleton(skeletonInput, method);
  for (const a of dated.ambiguous) process.stderr.write(`custos: ${ambiguousDatesNote(a.column, a.formats)}\n`);
  if (imported.renamedColumns?.length) process.stderr.write(`custos: ${renamedColumnsWarning(imported.renamedColumns)}\n`);
  if (imported.rejectedRowCount > 0) {
    process.stderr.write(`custos: ${imported.rejectedRowCount} row(s) cannot be read (first: line ${imported.rejectedRows[0]!.line}, ${imported.rejectedRows[0]!.reason}); the job skips them (input.onBadRow "skip")\n`);
    (job['input'] as Record<string, unknown>)['onBadRow'] = 'skip';
  }
  process.stdout.write(JSON.stringify(job, null, 2) + '\n');
  return 0;
}

async function jobCommand(command: 'assess' | 'run', args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, out: { type: 'string' }, internal: { type: 'string' }, 'test-seed': { type: 'string' } },
  });
  const json = values.json === true;
  if (positionals.length !== 1) throw new UsageError(`${command} needs exactly one JOB.json`);
  if (command === 'assess' && (values.out || values.internal)) throw new UsageError('assess writes nothing; --out and --internal belong to run');
  const seed = testSeed(values['test-seed']);
  const request: JobRequest = {
    command,
    jobPath: positionals[0]!,
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.internal ? { internalDir: values.internal } : {}),
    ...(seed !== undefined ? { testSeed: seed } : {}),
  };
  const bar = progressBar(process.stderr);
  const job = startJob(jobWorkerBeside(import.meta.url), request, (event) => bar.update(event));
  onInterrupt = () => {
    bar.clear();
    process.stderr.write('custos: cancelling…\n');
    void job.cancel();
  };
  if (interrupted) onInterrupt();
  const outcome = await job.result;
  onInterrupt = undefined;
  bar.clear();
  if (!outcome.ok) return fail(outcome.failure, json);
  process.stdout.write((json ? JSON.stringify(outcome.report, jsonReplacer, 2) : reportText(outcome.report, outcome.internalDir)) + '\n');
  // The preview is printed, but a setting that run would refuse is an invalid job all the same.
  const refusal = outcome.report.cannotRun;
  if (refusal) {
    process.stderr.write(`custos: this setting cannot run: ${refusal.key}: ${refusal.message}\n`);
    return 2;
  }
  // A preview whose review fails: said on stderr (the run would write nothing); the preview itself succeeded.
  if (command === 'assess' && outcome.report.review?.verdict === 'failed') {
    process.stderr.write('custos: the disclosure review fails: run would write nothing and exit 4 (recode or remove what it names, or accept the risk in review.acknowledge)\n');
  }
  return 0;
}

/** `custos compare`: in the job worker, as run; Ctrl-C stops it and removes what it was writing. */
async function compare(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, csv: { type: 'string' }, internal: { type: 'string' }, grid: { type: 'string', multiple: true }, 'max-candidates': { type: 'string' }, 'test-seed': { type: 'string' } },
  });
  const json = values.json === true;
  if (positionals.length === 0) throw new UsageError('compare needs at least one JOB.json');
  const seed = testSeed(values['test-seed']);
  const maxCandidates = maxCandidatesOf(values['max-candidates']);
  // Counted before the worker starts: a grid beyond the cap is refused at once, naming --grid.
  const count = plannedCandidates(positionals.length, (values.grid ?? []).map(parseGridAxis), maxCandidates);
  process.stderr.write(`custos: comparing ${count} candidate${count === 1 ? '' : 's'}\n`);
  const request: CompareRequest = {
    command: 'compare',
    jobPaths: positionals.map((p) => resolve(p)),
    grid: values.grid ?? [],
    ...(maxCandidates !== MAX_CANDIDATES ? { maxCandidates } : {}),
    ...(seed !== undefined ? { testSeed: seed } : {}),
    ...(values.internal ? { internalDir: resolve(values.internal) } : {}),
    ...(values.csv ? { csvPath: resolve(values.csv) } : {}),
  };
  const bar = compareProgressBar(process.stderr);
  const running = startComparison(jobWorkerBeside(import.meta.url), request, (p) => bar.update(p));
  onInterrupt = () => {
    bar.clear();
    process.stderr.write('custos: cancelling…\n');
    void running.cancel();
  };
  if (interrupted) onInterrupt();
  const outcome = await running.result;
  onInterrupt = undefined;
  bar.clear();
  if (!outcome.ok) return fail(outcome.failure, json);
  process.stdout.write((json ? JSON.stringify(outcome.comparison, null, 2) : comparisonText(outcome.comparison, { internalDir: request.internalDir, csvPath: request.csvPath })) + '\n');
  return 0;
}

/** --max-candidates: a whole number up to the hard limit; the wizard's cap without it. */
function maxCandidatesOf(value: string | undefined): number {
  if (value === undefined) return MAX_CANDIDATES;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_CANDIDATES_LIMIT) throw new UsageError(`--max-candidates must be a whole number from 1 to ${formatCount(MAX_CANDIDATES_LIMIT)}`);
  return n;
}

async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { original: { type: 'string' }, internal: { type: 'string' }, json: { type: 'boolean' }, 'accept-test-randomness': { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError('verify needs exactly one RELEASE_DIR');
  const dir = positionals[0]!;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return fail({ kind: 'input', message: `${dir} is not a folder`, file: dir }, values.json === true);
  }
  const result = await verifyRelease(dir, {
    ...(values.original ? { original: values.original } : {}),
    ...(values.internal ? { internalDir: values.internal } : {}),
    acceptTestRandomness: values['accept-test-randomness'] === true,
  });
  if (values.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  else {
    // A check names files of the folder: a name holding a line break or a terminal escape must not print a line of its own.
    for (const c of result.checks) process.stdout.write(`${c.notChecked ? 'skip' : c.ok ? 'ok  ' : 'FAIL'}  ${oneLine(c.name)}: ${oneLine(c.detail)}\n`);
    const skipped = result.checks.filter((c) => c.notChecked).length;
    const skippedText = skipped > 0 ? `; ${skipped} not checked (see "skip")` : '';
    process.stdout.write(result.ok ? `verified: every check holds (${result.checks.length - skipped})${skippedText}\n` : `NOT verified: ${result.checks.filter((c) => !c.ok).length} check(s) fail${skippedText}\n`);
  }
  return result.ok ? 0 : 1;
}

/** Control characters (line breaks, escapes) shown as JSON escapes, so a text prints on the line it belongs to. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  try {
    if (command === '--version' || command === '-v' || command === 'version') {
      process.stdout.write(`custos ${SOFTWARE_VERSION}\n`);
      return 0;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      const about = rest[0];
      if (about !== undefined && !isCommand(about)) throw new UsageError(`no command "${about}"`);
      process.stdout.write((about ? COMMAND_HELP[about] : USAGE) + '\n');
      return 0;
    }
    if (isCommand(command) && (rest.includes('--help') || rest.includes('-h'))) {
      process.stdout.write(COMMAND_HELP[command] + '\n');
      return 0;
    }
    if (command === 'inspect') return inspect(rest);
    if (command === 'init') return init(rest);
    if (command === 'assess' || command === 'run') {
      catchInterrupts();
      return await jobCommand(command, rest);
    }
    if (command === 'verify') return verify(rest);
    if (command === 'compare') {
      catchInterrupts();
      return await compare(rest);
    }
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      return fail({ kind: 'job', message: `${(error as Error).message}\n${USAGE}` }, json);
    }
    return fail(describeFailure(error), json);
  }
}

// A reader that stops early (`custos verify DIR | head -1`, `| grep -q`) closes the pipe: what is
// left to print has no reader, which is no failure of the command. The rest of the output is
// dropped quietly and the command ends as it would have (a run still completes its folders), with
// its own exit status; any other error writing the output is not hidden.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// Not a top-level await: the standalone build is CommonJS.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
