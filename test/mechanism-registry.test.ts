/**
 * The registries require every hook of every mechanism. A fake tenth mechanism shows it at the type
 * level (each `@ts-expect-error` below must meet an error, or `tsc --noEmit` fails: a hook made
 * optional, or a registry that stops naming every type, breaks the typecheck); at run time, every
 * registered type is found in every registry and list that the mechanisms' hooks generate.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { factsOf, keyFigureBlocks } from '../src/common/report/key-figures.js';
import type { Report } from '../src/common/report/report-model.js';
import { figure } from '../src/common/report/view-model.js';
import { z } from 'zod';
import { OUTPUT_FORMATS } from '../src/common/job/job-parts.js';
import type { AnyMechanismDefinition, MechanismDefinition, MechanismMetadata, RecordComparison } from '../src/common/mechanism.js';
import { COMMAND_HELP } from '../src/cli/help.js';
import { identityRisk, recordsAsReleased } from '../src/jobs/method-kit/compare-kit.js';
import type { NodeMechanism } from '../src/jobs/method-kit/node-mechanism.js';
import { jobSkeleton } from '../src/jobs/job-skeleton.js';
import type { BrowserMechanism } from '../src/renderer/components/browser-mechanism.js';
import { WRITTEN_FORMATS } from '../src/jobs/release-writers.js';
import { browserMechanismOf } from '../src/mechanisms/browser-registry.js';
import { DEFAULT_MECHANISM, definitionOf, MECHANISM_TYPES, type MechanismType } from '../src/mechanisms/definitions.js';
import { nodeMechanismOf } from '../src/mechanisms/node-registry.js';
import { COMPARE_AXES } from '../src/renderer/state/compare-candidates.js';

// ---- A fake tenth mechanism, as small as a definition can be. ----

const fakeSchema = z.object({ type: z.literal('fake-tenth'), k: z.number().int().min(2) }).strict();
type FakeSpec = z.output<typeof fakeSchema>;

const fakeMetadata: MechanismMetadata = {
  type: 'fake-tenth',
  aliases: [],
  title: 'Fake tenth mechanism',
  cardTitle: 'Fake tenth mechanism',
  protects: 'Nothing: it exists to show what a mechanism must provide.',
  costs: 'Nothing.',
  guarantee: 'None.',
  differentiallyPrivate: false,
  sensitiveColumns: 'none',
  source: 'This test.',
  reportSections: [],
  attackerKnowledge: 'This method assumes nothing; it protects nothing.',
  sensitiveRelease: 'as-collected',
  fieldNames: { k: 'the smallest class' },
  recommendation: { guards: 'identity', reason: 'It shows what a mechanism must provide.' },
  reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
};

// @ts-expect-error metadata without the wizard's names of its own keys does not compile (plain-messages names the field from them)
const metadataWithoutFieldNames: MechanismMetadata = { ...fakeMetadata, fieldNames: undefined };
// @ts-expect-error metadata that does not say how the reports set its figures (the utility's pool, the baselines, what of the (ε,δ) test is published) does not compile
const withoutFigures: MechanismMetadata = { ...fakeMetadata, reportFigures: undefined };

const fakeComparison: RecordComparison = {
  releasesRecords: true,
  axis: { words: 'k', key: 'k', suggested: '2, 3', min: 2, max: 10, integer: true, includedByDefault: false, apply: (m, v) => ({ ...m, k: v }) },
  estimator: 'as released',
  guaranteeLabel: (report) => report.guarantee.name,
};

const fakeDefinition: MechanismDefinition<typeof fakeSchema> = {
  schema: fakeSchema,
  suggested: { type: 'fake-tenth', k: 2 },
  metadata: fakeMetadata,
  recodes: false,
  domainsOf: 'none',
  compare: fakeComparison,
  chain: { role: 'alone', why: 'exists to show what a mechanism must provide' },
  reportView: (report) => ({
    sections: [[{ kind: 'paragraph', text: ['k = ', { data: String(report.method.parameters['k']) }] }]],
    keyFigures: [
      { kind: 'facts', rows: [figure('Fake k', String(report.method.parameters['k']))] },
      { kind: 'bars', title: 'Fake bars', bars: [{ label: 'k', value: 2, tone: 'neutral', text: '2' }] },
    ],
    preview: [{ kind: 'card', blocks: [{ kind: 'callout', tone: 'warn', text: 'The fake protects nothing.' }] }],
  }),
};

// @ts-expect-error nor a view without its key figures (the PDF's, the workbook's and the results step's)
const viewWithoutFigures: MechanismDefinition<typeof fakeSchema>['reportView'] = () => ({ sections: [], preview: [] });

// @ts-expect-error nor a view without its risk preview (the wizard's risk step)
const viewWithoutPreview: MechanismDefinition<typeof fakeSchema>['reportView'] = () => ({ sections: [], keyFigures: [] });

// @ts-expect-error nor one without its part of the report (the view the HTML, the PDF and the wizard draw)
const withoutView: MechanismDefinition<typeof fakeSchema> = { schema: fakeSchema, suggested: { type: 'fake-tenth', k: 2 }, metadata: fakeMetadata, recodes: false, domainsOf: 'none', compare: fakeComparison, chain: { role: 'attribute' } };

// @ts-expect-error a definition without its compare hook does not compile (no silent default measures it with another's attack)
const withoutCompare: MechanismDefinition<typeof fakeSchema> = { schema: fakeSchema, suggested: { type: 'fake-tenth', k: 2 }, metadata: fakeMetadata, recodes: false, domainsOf: 'none', chain: { role: 'attribute' } };

// @ts-expect-error nor one that does not say whether it recodes (init's hierarchies, the wizard's table)
const withoutRecodes: MechanismDefinition<typeof fakeSchema> = { schema: fakeSchema, suggested: { type: 'fake-tenth', k: 2 }, metadata: fakeMetadata, domainsOf: 'none', compare: fakeComparison, chain: { role: 'attribute' } };

// @ts-expect-error nor one that does not say whose domain its release shows (method.domains, custos init's proposals)
const withoutDomains: MechanismDefinition<typeof fakeSchema> = { schema: fakeSchema, suggested: { type: 'fake-tenth', k: 2 }, metadata: fakeMetadata, recodes: false, compare: fakeComparison, chain: { role: 'attribute' } };

// @ts-expect-error nor one that does not say which step of a chain it can be (src/mechanisms/chain.ts)
const withoutChain: MechanismDefinition<typeof fakeSchema> = { schema: fakeSchema, suggested: { type: 'fake-tenth', k: 2 }, metadata: fakeMetadata, recodes: false, domainsOf: 'none', compare: fakeComparison };

// @ts-expect-error a record comparison without its guarantee label does not compile
const withoutLabel: RecordComparison = { releasesRecords: true, axis: fakeComparison.axis, estimator: 'as released' };

// @ts-expect-error a mechanism compare skips must say why
const withoutReason: AnyMechanismDefinition['compare'] = { releasesRecords: false };

const fakeNode: NodeMechanism<FakeSpec> = {
  run: () => {
    throw new Error('the fake mechanism does not run');
  },
  verify: () => 'nothing to check',
  releasesInputColumns: true,
  compare: { risk: identityRisk, releasedRecords: recordsAsReleased },
  publishedStatement: (report) => ({ guarantee: { name: report.guarantee.name, statement: 'Nothing.', formula: 'none', source: 'none' }, summary: [], warnings: [] }),
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: false,
};

// @ts-expect-error nor one that does not say whether an empty release must be refused, or whether its parameters alone decide the release
const nodeWithoutReleaseChecks: NodeMechanism<FakeSpec> = { run: fakeNode.run, verify: fakeNode.verify, releasesInputColumns: true, compare: fakeNode.compare, publishedStatement: fakeNode.publishedStatement, releasedFrequencies: null };

// @ts-expect-error a Node part without its compare hook does not compile
const nodeWithoutCompare: NodeMechanism<FakeSpec> = { run: fakeNode.run, verify: fakeNode.verify, releasesInputColumns: true };

// @ts-expect-error nor one that does not write its published sentences again (verify checks every mechanism's words)
const nodeWithoutStatement: NodeMechanism<FakeSpec> = { run: fakeNode.run, verify: fakeNode.verify, releasesInputColumns: true, compare: fakeNode.compare, releasedFrequencies: null };

type FakeDraft = { readonly k: number };
const fakeBrowser: BrowserMechanism<FakeSpec, FakeDraft> = {
  definition: fakeDefinition as unknown as AnyMechanismDefinition,
  sensitive: 'none',
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({ k: m.k }),
  toMethod: (d) => ({ type: 'fake-tenth', k: d.k }),
  dataProblems: () => ({}),
  Form: () => createElement('p', null, 'k'),
};

// @ts-expect-error a wizard part that does not say which levels the hierarchy table shows for a job (or null: it does not recode) does not compile
const browserWithoutTableLevels: BrowserMechanism<FakeSpec, FakeDraft> = { ...fakeBrowser, tableLevels: undefined };

// @ts-expect-error nor one that does not say how the risk preview's lattice changes its draft (or null: no lattice)
const browserWithoutLattice: BrowserMechanism<FakeSpec, FakeDraft> = { ...fakeBrowser, latticeChoice: undefined };

// The registries are keyed by every type: registering a tenth type means an entry in each, or no compile.
type WithFake = MechanismType | 'fake-tenth';
const realDefinitions = Object.fromEntries(MECHANISM_TYPES.map((t) => [t, definitionOf(t)])) as unknown as { readonly [T in MechanismType]: AnyMechanismDefinition };
const realNode = Object.fromEntries(MECHANISM_TYPES.map((t) => [t, nodeMechanismOf(t)])) as unknown as { readonly [T in MechanismType]: NodeMechanism<never> };
// @ts-expect-error a registry that lacks the fake's definition does not compile
const definitionsWithoutFake: { readonly [T in WithFake]: AnyMechanismDefinition } = realDefinitions;
const definitionsWithFake: { readonly [T in WithFake]: AnyMechanismDefinition } = { ...realDefinitions, 'fake-tenth': fakeDefinition };
// @ts-expect-error nor a Node registry that lacks its Node part
const nodeWithoutFake: { readonly [T in WithFake]: NodeMechanism<never> } = realNode;
const nodeWithFake: { readonly [T in WithFake]: NodeMechanism<never> } = { ...realNode, 'fake-tenth': fakeNode as NodeMechanism<never> };

void [metadataWithoutFieldNames, browserWithoutTableLevels, browserWithoutLattice, withoutCompare, withoutRecodes, withoutDomains, withoutChain, withoutView, withoutLabel, withoutReason, nodeWithoutCompare, nodeWithoutStatement, nodeWithoutReleaseChecks, definitionsWithoutFake, nodeWithoutFake, withoutFigures, viewWithoutFigures, viewWithoutPreview];

// ---- At run time: what every registered mechanism must have, checked over a registry. ----

interface Registered {
  readonly definition: AnyMechanismDefinition;
  readonly node: NodeMechanism<never>;
}

/** Every hook a registered mechanism lacks, or that its parts disagree on, in words. */
function missingHooks(type: string, { definition, node }: Registered): string[] {
  const problems: string[] = [];
  if (definition.metadata.type !== type) problems.push(`${type}: its metadata names ${definition.metadata.type}`);
  if (typeof definition.recodes !== 'boolean') problems.push(`${type}: no recodes`);
  const compare = definition.compare as AnyMechanismDefinition['compare'] | undefined;
  if (!compare) problems.push(`${type}: no compare`);
  else if (compare.releasesRecords) {
    if (typeof compare.guaranteeLabel !== 'function' || !compare.estimator || !compare.axis) problems.push(`${type}: an incomplete compare`);
    if (!node.compare) problems.push(`${type}: releases records but its Node part has no compare`);
  } else {
    if (!compare.why) problems.push(`${type}: not compared, without a reason`);
    if (node.compare !== null) problems.push(`${type}: not compared, but its Node part has a compare`);
  }
  if (typeof definition.reportView !== 'function') problems.push(`${type}: no reportView`);
  const keys = Object.keys(definition.schema.shape);
  for (const key of Object.keys(definition.metadata.fieldNames)) if (!keys.includes(key)) problems.push(`${type}: names a field ${key} its method does not have`);
  const figures = definition.metadata.reportFigures as MechanismMetadata['reportFigures'] | undefined;
  if (!figures || !['sensitive-value', 'quasi-identifier'].includes(figures.utilityQueries) || typeof figures.releaseIsPlainPerturbation !== 'boolean' || typeof figures.releaseMeetsReconstructionTest !== 'boolean') {
    problems.push(`${type}: no reportFigures`);
  }
  for (const hook of ['run', 'verify', 'publishedStatement'] as const) if (typeof node[hook] !== 'function') problems.push(`${type}: no ${hook}`);
  return problems;
}

function registryProblems(types: readonly string[], registered: (type: string) => Registered): string[] {
  return types.flatMap((t) => missingHooks(t, registered(t)));
}

describe('the mechanism registries', () => {
  it('hold every hook of every registered mechanism, and of the fake one registered beside them', () => {
    expect(registryProblems(MECHANISM_TYPES, (t) => ({ definition: definitionOf(t as MechanismType), node: nodeMechanismOf(t as MechanismType) as NodeMechanism<never> }))).toEqual([]);
    const withFake: WithFake[] = [...MECHANISM_TYPES, 'fake-tenth'];
    expect(registryProblems(withFake, (t) => ({ definition: definitionsWithFake[t as WithFake], node: nodeWithFake[t as WithFake] }))).toEqual([]);
  });

  it('find a hook missing at run time (a definition built around the types)', () => {
    const broken = { ...fakeDefinition, compare: undefined } as unknown as AnyMechanismDefinition;
    expect(registryProblems(['fake-tenth'], () => ({ definition: broken, node: fakeNode as NodeMechanism<never> }))).toEqual(['fake-tenth: no compare']);
    const misnamed = { ...fakeDefinition, metadata: { ...fakeMetadata, fieldNames: { columns: 'the columns' } } } as unknown as AnyMechanismDefinition;
    expect(registryProblems(['fake-tenth'], () => ({ definition: misnamed, node: fakeNode as NodeMechanism<never> }))).toEqual(['fake-tenth: names a field columns its method does not have']);
    const disagreeing = { ...fakeNode, compare: null } as NodeMechanism<never>;
    expect(registryProblems(['fake-tenth'], () => ({ definition: fakeDefinition, node: disagreeing }))).toEqual(['fake-tenth: releases records but its Node part has no compare']);
  });

  it("set the fake mechanism's key figures among the shared ones, worded by its hooks, for the PDF, the workbook and the results", () => {
    const report = JSON.parse(readFileSync('test/fixtures/reports/safek-internal.json', 'utf8')) as Report;
    const fake: Report = { ...report, method: { ...report.method, type: 'fake-tenth', parameters: { k: 7 } } };
    const blocks = keyFigureBlocks(fake, [fakeDefinition.reportView(fake)], fakeMetadata.reportFigures);
    const facts = factsOf(blocks);
    expect(facts[0]![0]).toBe('Records in the input (internal)');
    expect(facts).toContainEqual(['Fake k', '7']);
    expect(facts.map(([label]) => label)).toContain('Mean relative error of quasi-identifier count queries');
    const sensitive = factsOf(keyFigureBlocks(fake, [fakeDefinition.reportView(fake)], { ...fakeMetadata.reportFigures, utilityQueries: 'sensitive-value' }));
    expect(sensitive.map(([label]) => label)).toContain('Mean relative error of sensitive-value count queries');
    expect(blocks.filter((b) => b.kind === 'bars').map((b) => b.kind === 'bars' && b.title)).toEqual(['Fake bars', 'Mean relative error of quasi-identifier count queries (lower is better)']);
    // Every real mechanism's view has its key figures (an empty list is a statement: microaggregation's are in its section).
    for (const type of MECHANISM_TYPES) expect(Array.isArray(definitionOf(type).reportView(report).keyFigures), type).toBe(true);
  });

  it('give every registered type a wizard part that agrees with its definition', () => {
    for (const type of MECHANISM_TYPES) {
      const browser = browserMechanismOf(type);
      expect(browser.definition.metadata.type, type).toBe(type);
      expect(browser.recodes, type).toBe(definitionOf(type).recodes);
      // The hierarchy table's levels come from exactly the methods that recode.
      expect(browser.tableLevels !== null, type).toBe(browser.recodes);
    }
  });

  it('put every registered type in the lists generated from them: compare, init, help', () => {
    const compared = MECHANISM_TYPES.filter((t) => definitionOf(t).compare.releasesRecords);
    expect(COMPARE_AXES.map((a) => a.method)).toEqual(compared);
    // dp-counts is the one method compare skips today; a new record release must be compared.
    expect(MECHANISM_TYPES.filter((t) => !compared.includes(t))).toEqual(['dp-counts']);
    const help = COMMAND_HELP.init.replace(/\s+/g, ' ');
    for (const type of MECHANISM_TYPES) expect(help, type).toContain(type === DEFAULT_MECHANISM ? `${type} (default)` : type);
    for (const type of MECHANISM_TYPES) {
      const skeleton = jobSkeleton({ path: '/data/x.csv', missing: [], rows: 0, columns: [] }, type) as { method: Record<string, unknown> };
      expect(skeleton.method['type'], type).toBe(type);
      expect('hierarchies' in skeleton.method, type).toBe(definitionOf(type).recodes);
    }
  });

  it('say whose domain the release shows exactly when the job takes method.domains, and init proposes those domains', () => {
    const top = (values: string[]): { value: string; count: number }[] => values.map((value) => ({ value, count: 10 }));
    const columns = [
      { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: top(['flu', 'cold', 'HIV']) },
      { name: 'sex', type: 'text', distinct: 2, missing: 0, top: top(['f', 'm']) },
      { name: 'age', type: 'integer', distinct: 40, missing: 0, top: top(['20', '21']) },
    ];
    const values = new Map([['diagnosis', ['flu', 'cold', 'HIV']], ['sex', ['f', 'm']]]);
    for (const type of MECHANISM_TYPES) {
      const definition = definitionOf(type);
      expect(definition.domainsOf !== 'none', type).toBe('domains' in definition.schema.shape);
      const skeleton = jobSkeleton({ path: '/data/x.csv', missing: [], rows: 100, columns, values }, type) as { method: Record<string, unknown> };
      const proposed = Object.keys((skeleton.method['domains'] ?? {}) as object).sort();
      // "diagnosis" is suggested sensitive by its name; dp-counts crosses its few-valued columns.
      const expected = definition.domainsOf === 'sensitive' ? ['diagnosis'] : definition.domainsOf === 'method-columns' ? ((skeleton.method['columns'] ?? []) as string[]).slice().sort() : [];
      expect(proposed, type).toEqual(expected);
      if (definition.domainsOf === 'method-columns') expect(proposed.length, type).toBeGreaterThan(0);
    }
  });

  it('write every output format, each once, with one writer', () => {
    expect([...WRITTEN_FORMATS].sort()).toEqual([...OUTPUT_FORMATS].sort());
    expect(new Set(WRITTEN_FORMATS).size).toBe(WRITTEN_FORMATS.length);
    // The workbook last: its Checksums sheet lists the files written before it.
    expect(WRITTEN_FORMATS[WRITTEN_FORMATS.length - 1]).toBe('xlsx');
  });
});
