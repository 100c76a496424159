import type { RiskProfileReport } from './report-model.js';

/**
 * The risk profile (risk.profile of the internal report, src/common/risk/risk-profile.ts) in words, one
 * [label, value] pair a figure: the internal report's HTML, the command line's assessment and the
 * wizard's risk preview all show these.
 */
export type ProfileFact = readonly [label: string, value: string];

const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number): string => `${(100 * x).toFixed(x > 0 && x < 0.001 ? 4 : 2)} %`;
const fig = (x: number): string => (x === 0 ? '0' : x >= 0.001 ? x.toFixed(4) : x.toExponential(3));
const MODEL = { pitman: 'Pitman', zayatz: 'Zayatz', snb: 'SNB', none: 'none (no sample unique)' } as const;

export function riskProfileBasis(profile: RiskProfileReport): string {
  return `${profile.basis === 'input' ? 'the input as collected' : 'the released records'}, on ${profile.quasiIdentifiers.join(', ')}`;
}

export function riskProfileFacts(profile: RiskProfileReport): ProfileFact[] {
  const facts: ProfileFact[] = [['Records, classes, sample uniques', `${n(profile.records)}, ${n(profile.classes)}, ${n(profile.sampleUniques)}`]];
  const population = profile.population;
  if (population) {
    const estimate = (e: { populationUniques?: number; populationUniqueShare?: number }) =>
      e.populationUniques === undefined ? 'no solution' : `${e.populationUniques.toFixed(1)} (${pct(e.populationUniqueShare!)} of the population)`;
    facts.push([`Population`, `${n(population.size)} people (sampling fraction ${population.fraction})`]);
    for (const e of population.estimates) facts.push([`Population uniques, ${MODEL[e.model]}`, estimate(e)]);
    facts.push([`Population uniques, Dankar et al.'s choice`, `${MODEL[population.dankar.model]}: ${estimate(population.dankar)}`]);
  } else {
    facts.push(['Population', 'not stated (review.populationSize or review.samplingFraction): no population-uniqueness or k-map figure']);
  }
  if (profile.kMap) facts.push(['k-map (journalist) risk', `k = ${profile.kMap.k.toFixed(1)} estimated people in the smallest class; highest ${fig(profile.kMap.highest)}, average ${fig(profile.kMap.average)} (each class of f records standing for f / π people)`]);
  const individual = profile.individual;
  if ('skipped' in individual) facts.push(['Individual risk', `not computed: ${individual.skipped}`]);
  else {
    const basis = individual.basis === 'weights' ? `with the case weights of ${individual.weightColumn}` : individual.basis === 'sampling-fraction' ? 'each record standing for 1/π people' : 'the file taken as the population (1 / class size)';
    facts.push(['Individual risk (Benedetti–Franconi)', `highest ${fig(individual.highest)}, average ${fig(individual.globalRisk)}, ${individual.expectedReidentifications.toFixed(2)} expected re-identifications (${basis})`]);
  }
  const suda = profile.suda;
  if ('skipped' in suda) facts.push(['SUDA2', `not computed: ${suda.skipped}`]);
  else {
    const bound = suda.maxSize < suda.attributes ? `MSUs searched up to size ${suda.maxSize} of ${suda.attributes} (the search grows as C(${suda.attributes}, k)); larger ones not counted` : `MSUs of every size up to ${suda.attributes}`;
    facts.push(['SUDA2 special uniques', `${n(suda.specialUniques)} records unique on a part of their quasi-identifiers; ${n(suda.recordsWithMsu)} with a minimal sample unique (${bound})`]);
    facts.push(['SUDA2 scores', `highest ${n(suda.highestScore)}; DIS score highest ${fig(suda.disHighest)}, above 0.1 for ${n(suda.disAbove.find((d) => d.threshold === 0.1)?.records ?? 0)} records`]);
  }
  return facts;
}
