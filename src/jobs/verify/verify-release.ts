import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { esc } from '../../common/report/format.js';
import { basename, dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Table } from '../../common/table/table.js';
import { readTable } from '../../io/input/read-table.js';
import { FOLDER_KIND_WORDS, MANIFEST, notARegularFile, readJsonFile, readManifest, type Manifest } from '../../io/output/manifest.js';
import { sha256OfFile } from '../../io/file-checksum.js';
import { EARLIER_REPORT_SCHEMAS, REPORT_SCHEMA, type Report } from '../../common/report/report-model.js';
import { parseJob, type LoadedJob } from '../load-job.js';
import type { Job } from '../../mechanisms/definitions.js';
import { CheckList, type VerifyResult } from '../method-kit/checks.js';
import type { NodeMechanism, VerifyContext } from '../method-kit/node-mechanism.js';
import { nodeMechanismOf } from '../../mechanisms/node-registry.js';
import { parseReport } from '../../mechanisms/report-schema.js';
import { checkPublishedStatement } from './published-statement.js';
import { checkRecodedValues } from './recoded-values.js';
import { verifyChain } from './chain-check.js';
import { releaseLayout } from './release-layout.js';
import type { HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import { readReleased } from '../method-kit/released-table.js';
import { publishabilityProblems } from './publishability.js';
import { internalOnlyFacts, mergeFacts, originalFacts, type ConfidentialFact } from './confidential-facts.js';
import { isDifferentiallyPrivate } from '../report-builder.js';
import { checkFormatAgreement } from './format-agreement.js';
import { ReleaseFiles } from './release-files.js';
import { checkRewritten } from './rewrite.js';
import { checkReview } from './review-check.js';
import { snapshotFolder } from './snapshot.js';
import { prepareInput } from '../prepare-input.js';

export interface VerifyOptions {
  /** The confidential input, for the checks that need it. */
  readonly original?: string;
  /** The internal report's folder; default: the release folder's sibling with an `-internal` suffix. */
  readonly internalDir?: string;
  /** Accept releases made with seeded test randomness (for tests of verify itself). */
  readonly acceptTestRandomness?: boolean;
}


const readJson = readJsonFile;

/** The internal report, if its folder exists and its manifest vouches for it; a failed check otherwise. */
function readInternal(dir: string, options: VerifyOptions, checks: CheckList, internalGiven: boolean, shown: string): { report: Report; manifest: Manifest } | undefined {
  const internalDir = options.internalDir ?? join(dirname(resolve(dir)), `${basename(resolve(dir))}-internal`);
  if (!existsSync(join(internalDir, 'internal-report.json'))) {
    if (internalGiven || options.original) checks.add('internal report', false, `no internal-report.json in ${shown}; pass --internal DIR to name the internal report's folder`);
    return undefined;
  }
  let report: Report | undefined;
  let read: Manifest | undefined;
  checks.run('internal report', () => {
    const manifest = readManifest(internalDir);
    if (typeof manifest === 'string') return { ok: false, detail: `${shown}: ${manifest}` };
    const changed = manifest.files.filter((f) => f.name !== basename(f.name) || notARegularFile(join(internalDir, f.name)) !== undefined || sha256OfFile(join(internalDir, f.name)) !== f.sha256).map((f) => f.name);
    if (changed.length) return { ok: false, detail: `${shown}: changed or missing since Custos wrote them: ${changed.join(', ')}` };
    const parsed = parseReport(readJson(join(internalDir, 'internal-report.json')), 'internal');
    if (!parsed.ok) return { ok: false, detail: `${shown}: internal-report.json does not match the report schema: ${parsed.problems.slice(0, 5).join('; ')}` };
    report = parsed.report;
    read = manifest;
    return `${shown} (every file matches its manifest; the internal report parses)`;
  });
  return report && read ? { report, manifest: read } : undefined;
}

/**
 * The sentences the run published (the external summary and warnings): report.json's, when it is the
 * file the internal report lists; otherwise only those that a release file the internal report lists,
 * unchanged, states (an edited report.json cannot make an internal sentence public).
 */
function publicSentences(dir: string, report: Report, internal: Report): Set<string> {
  const listed = new Map((internal.output?.files ?? []).map((f) => [f.name, f.sha256]));
  // Only a bare file name of this folder: a name that climbs out of it must not be opened.
  const unchanged = (name: string): boolean => typeof name === 'string' && name === basename(name) && name !== '' && name !== '.' && name !== '..' && existsSync(join(dir, name)) && notARegularFile(join(dir, name)) === undefined && listed.get(name) === sha256OfFile(join(dir, name));
  const candidates = [...(Array.isArray(report.summary) ? report.summary : []), ...(Array.isArray(report.warnings) ? report.warnings : [])].filter((s): s is string => typeof s === 'string');
  if (unchanged('report.json')) return new Set(candidates);
  const texts = [...listed.keys()].filter((name) => name !== 'report.json' && /\.(html|json)$/.test(name) && unchanged(name)).map((name) => readFileSync(join(dir, name), 'utf8'));
  return new Set(candidates.filter((s) => texts.some((t) => t.includes(s) || t.includes(esc(s)))));
}

/**
 * Re-checks a release folder without trusting the tool's word: every checksum,
 * the job, record counts, that nothing in it is confidential, and the method's
 * guarantee from the released files (and from the original file where the
 * guarantee is about it).
 */
export async function verifyRelease(given: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  // Every check reads one private copy of the folder, each file opened once (snapshot.ts).
  const snapshot = snapshotFolder(given);
  if (typeof snapshot === 'string') return { ok: false, dir: given, checks: [{ name: 'release folder', ok: false, detail: `${given}: ${snapshot}` }] };
  const internalDir = options.internalDir ?? join(dirname(resolve(given)), `${basename(resolve(given))}-internal`);
  // The internal folder too, when there is one (its files are checked against its manifest as copied).
  const internal = existsSync(internalDir) ? snapshotFolder(internalDir) : undefined;
  try {
    if (typeof internal === 'string') return { ok: false, dir: given, checks: [{ name: 'internal report', ok: false, detail: `${internalDir}: ${internal}` }] };
    const internalCopy = internal && internal.strange.length === 0 ? internal.path : internalDir;
    return { ...(await verifyCopy(snapshot.path, given, snapshot.strange, { ...options, internalDir: internalCopy }, options.internalDir !== undefined, internalDir)), dir: given };
  } finally {
    snapshot.remove();
    if (typeof internal === 'object') internal.remove();
  }
}

async function verifyCopy(dir: string, given: string, strange: readonly string[], options: VerifyOptions, internalGiven: boolean, internalShown: string): Promise<VerifyResult> {
  const checks = new CheckList();
  // A manifest that is a link or a FIFO was not copied: said as what it is.
  const strangeManifest = strange.find((s) => s.startsWith(`${MANIFEST} is `));
  if (strangeManifest) {
    checks.add(MANIFEST, false, `${given}: ${strangeManifest}, not a file Custos wrote; it is not a Custos release`);
    return { ok: false, dir, checks: checks.checks };
  }
  const manifest = readManifest(dir);
  if (typeof manifest === 'string') {
    checks.add(MANIFEST, false, `${given}: ${manifest}; it is not a Custos release`);
    return { ok: false, dir, checks: checks.checks };
  }
  const manifestText = readFileSync(join(dir, MANIFEST), 'utf8');
  checks.add(MANIFEST, manifest.kind === 'release', manifest.kind === 'release' ? `${manifest.files.length} files listed` : `describes ${FOLDER_KIND_WORDS[manifest.kind]} folder, not a release`);
  // A release holds regular files only: a link, FIFO or device would be followed, block or never end when read.
  checks.add('regular files only', strange.length === 0, strange.length === 0 ? 'every entry is a regular file' : `${strange.join('; ')}: not read`);
  if (strange.length > 0) return { ok: false, dir, checks: checks.checks };
  for (const file of manifest.files) {
    checks.run(`checksum ${file.name}`, () => {
      const path = join(dir, file.name);
      if (file.name !== basename(file.name) || !existsSync(path)) return { ok: false, detail: `listed in ${MANIFEST} but missing` };
      const actual = sha256OfFile(path);
      return actual === file.sha256 ? `sha256 ${actual.slice(0, 16)}… matches` : { ok: false, detail: `sha256 is ${actual}, ${MANIFEST} says ${file.sha256}: the file was changed` };
    });
  }
  const listed = new Set([...manifest.files.map((f) => f.name), MANIFEST]);
  const extra = readdirSync(dir).filter((name) => !listed.has(name));
  checks.add('no unlisted files', extra.length === 0, extra.length === 0 ? 'every file is listed with its checksum' : `not listed in ${MANIFEST}: ${extra.join(', ')}`);
  let report: Report;
  let reportText: string | undefined;
  try {
    const value = readJson(join(dir, 'report.json'));
    reportText = readFileSync(join(dir, 'report.json'), 'utf8');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('it is not a JSON object');
    report = value as Report;
  } catch (error) {
    checks.add('report.json', false, `cannot be read: ${(error as Error).message}`);
    return { ok: false, dir, checks: checks.checks };
  }
  // A release of an earlier Custos: this verify writes each file again as Custos writes it now, so it
  // cannot vouch for it; the checksums above still say whether its bytes changed since.
  if (typeof report.schema === 'string' && EARLIER_REPORT_SCHEMAS.includes(report.schema)) {
    checks.add(
      'release format',
      false,
      `written by an earlier Custos (report schema ${report.schema}); this verify checks releases of report schema ${REPORT_SCHEMA} by writing every file again as Custos now writes it, so it cannot check this one: verify it with the Custos that wrote it, or run its job again with this one`,
    );
    return { ok: false, dir, checks: checks.checks };
  }
  // Parsed with the external report's schema: a field it does not list is also a publishability problem (below).
  // A hostile report.json (a field an object where text is expected, arrays nested too deep to
  // walk) fails this check; it must not stop verify with a stack trace.
  checks.run('report schema', () => {
    const parsed = parseReport(report, 'external');
    const what = `${typeof report.schema === 'string' ? report.schema : 'no schema'} (${typeof report.kind === 'string' ? report.kind : 'no kind'})`;
    if (report.schema === REPORT_SCHEMA && report.kind === 'release' && parsed.ok) return `${what}, every field as the external report's schema allows`;
    return { ok: false, detail: parsed.ok ? `${what}: not a release report` : `${what}: ${parsed.problems.slice(0, 8).join('; ')}` };
  });
  checks.add(
    'randomness',
    !report.testRandomness || options.acceptTestRandomness === true,
    report.testRandomness ? 'made with seeded TEST randomness: not a protected release' : 'operating-system CSPRNG',
  );
  const manifestSums = new Map(manifest.files.map((f) => [f.name, f.sha256]));
  checks.run('report.json checksums', () => {
    const files: unknown = report.output?.files ?? [];
    if (!Array.isArray(files)) return { ok: false, detail: 'output.files is not a list' };
    const disagreeing = files.filter((f: unknown) => typeof f !== 'object' || f === null || manifestSums.get(String((f as { name?: unknown }).name)) !== (f as { sha256?: unknown }).sha256).map((f: unknown) => {
      const name = (f as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? name : JSON.stringify(name ?? null);
    });
    return disagreeing.length === 0 ? `agree with ${MANIFEST}` : { ok: false, detail: `differ from ${MANIFEST}: ${disagreeing.join(', ')}` };
  });
  let job: Job | undefined;
  let chain: LoadedJob['chain'];
  let jobText: unknown;
  checks.run('job.json', () => {
    jobText = readJson(join(dir, 'job.json'));
    const loaded = parseJob(jobText, dir, undefined, { chains: true });
    job = loaded.job;
    chain = loaded.chain;
    return isDeepStrictEqual(jobText, report.job) ? 'valid, and identical to the job embedded in the report' : { ok: false, detail: 'differs from the job embedded in report.json' };
  });
  const internalFolder = readInternal(dir, options, checks, internalGiven, internalShown);
  const internal = internalFolder?.report;
  if (internalFolder && internal) {
    // The internal report names the files its run wrote: a report of another run (or a release
    // changed since) would vouch for facts about data that is not this release's.
    const listed = new Map((internal.output?.files ?? []).map((f) => [f.name, f.sha256]));
    const differing = [...new Set([...listed.keys(), ...manifestSums.keys()])].filter((name) => listed.get(name) !== manifestSums.get(name));
    // Both manifests name the release (folders written before identifiers name none: their checksums decide alone).
    const served = internalFolder.manifest.release;
    const otherId = served !== undefined && manifest.release !== undefined && served !== manifest.release;
    checks.add(
      'internal report is of this release',
      listed.size > 0 && differing.length === 0 && !otherId,
      listed.size === 0
        ? 'the internal report lists no release files'
        : differing.length > 0
          ? `it lists other files or checksums for ${differing.join(', ')}: it is the report of another run, or the release changed after it`
          : otherId
            ? `its ${MANIFEST} names release ${served}, this release's names ${manifest.release}: it is the report of another run`
            : `it lists these ${listed.size} files with these checksums${served !== undefined && manifest.release !== undefined ? `, and both manifests name release ${served}` : ''}`,
    );
  }
  let original: Table | undefined;
  let originalFile: { path: string; rows: number[]; sha256: string } | undefined;
  if (options.original) {
    checks.run('original file', () => {
      // The internal job knows how the input was read (its sheet, for one); the public one leaves that out.
      const parsedInternal = internal ? parseJob(internal.job, dir, undefined, { chains: true }).job : undefined;
      const readAs = parsedInternal ?? job;
      const imported = readTable(options.original!, {
        ...(readAs?.input.delimiter ? { delimiter: readAs.input.delimiter } : {}),
        ...(readAs?.input.encoding ? { encoding: readAs.input.encoding } : {}),
        sheet: readAs?.input.sheet ?? null,
        missing: readAs?.input.missing ?? [''],
        onBadRow: readAs?.input.onBadRow ?? 'error',
      });
      // The table the run's mechanism saw: the same treatment of missing sensitive values.
      original = readAs ? prepareInput(readAs, imported).table : imported.table;
      originalFile = { path: resolve(options.original!), rows: [imported.table.rowCount, original.rowCount], sha256: imported.sha256 };
      if (!internal?.input.sha256) return { ok: false, detail: "the input's checksum is in the internal report, which was not found" };
      return imported.sha256 === internal.input.sha256
        ? `sha256 matches the internal report's input (${imported.table.rowCount} records)`
        : { ok: false, detail: `sha256 ${imported.sha256} is not the internal report's input ${internal.input.sha256}` };
    });
  }
  const files = new ReleaseFiles(dir);
  checks.run('publishable', () => {
    const dp = isDifferentiallyPrivate(report.method?.type ?? '');
    let facts: readonly ConfidentialFact[] = [];
    // A released table's number of records is there for anyone to count: never a secret (confidential-facts.ts).
    const sentences = internal ? publicSentences(dir, report, internal) : new Set<string>();
    const problems = publishabilityProblems(files, report, jobText, (releasedRows) => (facts = mergeFacts(internal ? internalOnlyFacts(internal, sentences, releasedRows) : [], originalFile ? originalFacts(originalFile, dp, releasedRows) : [])), job?.output.delimiter ?? ',');
    if (problems.length > 0) return { ok: false, detail: problems.join('; ') };
    const searched = [internal ? "every figure and sentence the internal report keeps internal, the input's checksum, path and file names" : '', originalFile ? `the original's checksum, path and file names${facts.some((f) => f.number !== undefined && f.kind === "the input's record count") ? ' and record count' : ''}` : '']
      .filter(Boolean)
      .join('; ');
    return searched
      ? `no internal field or internal report in any file, and none states ${searched}`
      : 'no internal field or internal report in any file (facts of the input are searched for with the internal report or --original at hand)';
  });
  if (job) checkFormatAgreement(files, manifest.files.map((f) => f.name), job.output.delimiter, checks);
  let reviewed = false;
  if (job && reportText !== undefined && parseReport(report, 'external').ok) {
    const parsedJob = job;
    await checkRewritten(files, manifest, manifestText, job, report, reportText, checks, (tables) => {
      reviewed = true;
      checks.run('disclosure review', () => checkReview(parsedJob, report, tables, chain?.steps[0]));
    });
  } else checks.add('every byte accounted for', false, 'needs a job.json and a report.json that parse: nothing was written again to compare');
  if (!reviewed) checks.add('disclosure review', false, 'the released tables could not be read: the review was not computed again');
  files.forget();
  if (job && chain) {
    verifyChain({ dir, report, checks, tables: releaseLayout(job, report).tables, ...(internal ? { internal } : {}) }, chain.steps);
  } else if (job) {
    const context: VerifyContext = { dir, report, job, checks, ...(internal ? { internal } : {}), ...(original ? { original } : {}) };
    const mechanism = nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;
    if (parseReport(report, 'external').ok) {
      checkPublishedStatement(report, mechanism.publishedStatement, checks);
      const hierarchies = (job.method as { hierarchies?: Record<string, HierarchySpec> }).hierarchies;
      if (hierarchies && report.anonymity) {
        try {
          checkRecodedValues(report, hierarchies, readReleased(dir, 'release', 'Release', job.output.delimiter), checks);
        } catch (error) {
          checks.add('recoded values of their hierarchies', false, `the release cannot be read: ${(error as Error).message}`);
        }
      }
    }
    checks.run('guarantee checks', () => mechanism.verify(context, job!.method));
  }
  return { ok: checks.checks.every((c) => c.ok), dir, method: report.method?.type, checks: checks.checks };
}
