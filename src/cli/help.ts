import { INPUT_FORMATS_IN_WORDS } from '../common/input-formats.js';
import { DEFAULT_MECHANISM, MECHANISM_TYPES } from '../mechanisms/definitions.js';

/** Every method, from the registry: "reconstruction-privacy (default), uniform-perturbation, … or dp-counts". */
const METHOD_LIST = ((names) => `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`)(MECHANISM_TYPES.map((t) => (t === DEFAULT_MECHANISM ? `${t} (default)` : t)));

/** Words filled into lines of at most `width` characters, each after `indent` characters (the first line's written before it, the others spaces). */
function wrapped(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** What each command does and takes, for `custos help COMMAND` and `custos COMMAND --help`. */
export const COMMAND_HELP = {
  inspect: `custos inspect FILE [--sheet S] [--delimiter D] [--encoding E] [--missing "A,B"] [--skip-bad-rows] [--json]

${wrapped(`Reads a file as a job would (${INPUT_FORMATS_IN_WORDS}) and describes it: format, delimiter and encoding detected, records, and per column its type and the number of distinct and missing values.`, 0, 100)}

  --sheet S          the workbook's sheet, by name or 0-based number (default: the first)
  --delimiter D      one character, or "tab" (default: detected from the first lines; text files only)
  --encoding E       utf-8, utf-16le, utf-16be or windows-1252 (default: detected; text files only)
  --missing "A,B"    the codes that mean missing, comma-separated (default: empty cells)
  --skip-bad-rows    list malformed rows instead of stopping at the first one
  --json             the description as JSON`,
  init: `custos init FILE [--method TYPE | --method A,B] [--sheet S] [--delimiter D] [--encoding E] [--missing "A,B"] > job.json

Writes a job for FILE to standard output: the roles the wizard would suggest for its columns (with
the reason of each), the method's suggested parameters, CSV output with every report, and "_help"
notes saying what to check. Custos ignores the notes when it reads the job.

  --method TYPE      ${wrapped(METHOD_LIST, 21, 100)}
  --method A,B       ${wrapped('a chain: an identity method (global-recoding, microaggregation), then an attribute method (beta-privacy, uniform-perturbation) run on its release, e.g. global-recoding,beta-privacy', 21, 100)}
  (reading options as for inspect)`,
  assess: `custos assess JOB.json [--json]

Runs the job's method without writing anything: the risk before and after, and the guarantee, as
the risk preview of the wizard shows them. A setting that run would refuse (no recoding meets the
models within the suppression limit, say) is assessed all the same, with exit status 2 and the
reason on stderr (and as "cannotRun" in the JSON).

  --json             the assessment (the internal report's model) as JSON`,
  run: `custos run JOB.json [--out DIR] [--internal DIR] [--json]

Runs the job and writes the release folder (what may be published: the protected data, the
external report, the job and a manifest of checksums) and, beside it, the internal report
(confidential: facts of the input, never to be published). Nothing is left half-written: outputs
are staged and moved into place when complete, and Ctrl-C cancels cleanly.

  --out DIR          the release folder (default: output.dir of the job)
  --internal DIR     the internal report's folder (default: DIR-internal beside the release)
  --json             the internal report as JSON on standard output`,
  compare: `custos compare JOB.json [JOB.json …] [--grid KEY=V1,V2,…]… [--max-candidates N] [--json] [--csv FILE] [--internal DIR]

Assesses several candidate jobs on the same input without writing any release: each method runs in
memory, its release is read and dropped. For each candidate: the method and its parameters, the
formal guarantee, a risk (the share of the input's records whose sensitive value or identity the
method's own attack model recovers) and a common-pool query error (mean relative error of one pool
of count queries over every column, drawn once from the input and answered from every candidate's
release; not the run report's sensitive-value query error, whose queries all fix a sensitive value),
and whether it is on the non-dominated frontier. A candidate that cannot run (its job or parameters,
or its method refusing it) is listed as "cannot run: <reason>" and the others are compared; the exit
status is 2 only when none could run. The comparison is confidential: choosing among candidates by
these figures is itself a use of the data, which no candidate's guarantee covers.

  --grid KEY=V1,V2   one candidate per value of a key of the job's method object ("retention",
                     "target.epsilon"); several --grid make every combination; one JOB.json only
  --max-candidates N at most N candidates (default 60, as the app's Compare step; up to 1,000):
                     counted before any work, more exit 2
  --json             the comparison as JSON
  --csv FILE         the table as CSV (its first row is the confidential mark)
  --internal DIR     the comparison as an internal folder: comparison.json, comparison.html (with
                     the chart), comparison.csv and a manifest; never a release folder`,
  verify: `custos verify RELEASE_DIR [--original FILE] [--internal DIR] [--json]

Re-checks a release folder as an auditor would: every checksum of the manifest, the report against
the files, and the method's guarantee from the released data (with --original, against the input).

  --original FILE    the confidential input, for the checks that need it
  --internal DIR     the internal report's folder, to check it too
  --json             the checks as JSON`,
  help: `custos help [COMMAND]

Describes a command (inspect, init, assess, run, compare, verify), or lists them all.`,
} as const;

export type Command = keyof typeof COMMAND_HELP;

export function isCommand(name: string | undefined): name is Command {
  return name !== undefined && Object.hasOwn(COMMAND_HELP, name);
}

/** Every command's first line, and the exit statuses. */
export const USAGE = `usage:
${(Object.keys(COMMAND_HELP) as Command[]).map((c) => `  ${COMMAND_HELP[c].split('\n')[0]}`).join('\n')}
  custos --version

custos help COMMAND (or custos COMMAND --help) describes a command.
exit status: 0 success, 2 invalid job or parameters, 3 unreadable or malformed input,
1 anything else (verify: some check does not hold)`;
