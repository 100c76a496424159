/**
 * The registry of mechanisms, environment-free part: every mechanism's schema,
 * cross-parameter checks and metadata, in the order the wizard shows them.
 * Adding a mechanism: a folder named after its method.type, and a line here
 * (and in node-registry.ts and browser-registry.ts for its run and its form).
 */
import type { z } from 'zod';
import { betaPrivacy, type BetaPrivacySpec } from './beta-privacy/definition.js';
import { dpCounts, type DpCountsSpec } from './dp-counts/definition.js';
import { globalRecoding, type GlobalRecodingSpec } from './global-recoding/definition.js';
import { microaggregation, type MicroaggregationSpec } from './microaggregation/definition.js';
import { partitionedRecoding, type PartitionedRecodingSpec } from './partitioned-recoding/definition.js';
import { reconstructionPrivacy, type ReconstructionPrivacySpec } from './reconstruction-privacy/definition.js';
import { safeKAnonymity, type SafeKAnonymitySpec } from './safe-k-anonymity/definition.js';
import { uniformPerturbation, type UniformPerturbationSpec } from './uniform-perturbation/definition.js';
import type { JobWith } from '../common/job/job-parts.js';
import type { AnyMechanismDefinition, MechanismMetadata } from '../common/mechanism.js';

/** The parsed method object of every mechanism, keyed by its type. */
export interface MethodSpecs {
  readonly 'reconstruction-privacy': ReconstructionPrivacySpec;
  readonly 'uniform-perturbation': UniformPerturbationSpec;
  readonly 'beta-privacy': BetaPrivacySpec;
  readonly 'safe-k-anonymity': SafeKAnonymitySpec;
  readonly 'partitioned-recoding': PartitionedRecodingSpec;
  readonly 'global-recoding': GlobalRecodingSpec;
  readonly microaggregation: MicroaggregationSpec;
  readonly 'dp-counts': DpCountsSpec;
}
export type MechanismType = keyof MethodSpecs;
export type MethodSpec = MethodSpecs[MechanismType];
export type Job = JobWith<MethodSpec>;
export type MethodInput<T extends MechanismType> = z.input<(typeof DEFINITIONS)[T]['schema']>;

const DEFINITIONS = {
  'reconstruction-privacy': reconstructionPrivacy,
  'uniform-perturbation': uniformPerturbation,
  'beta-privacy': betaPrivacy,
  'safe-k-anonymity': safeKAnonymity,
  'partitioned-recoding': partitionedRecoding,
  'global-recoding': globalRecoding,
  microaggregation,
  'dp-counts': dpCounts,
} as const satisfies { readonly [T in MechanismType]: AnyMechanismDefinition };

export const MECHANISM_TYPES = Object.keys(DEFINITIONS) as MechanismType[];

/** The method the wizard starts with and `custos init` writes unless told another. */
export const DEFAULT_MECHANISM: MechanismType = 'reconstruction-privacy';
export const MECHANISM_DEFINITIONS: readonly AnyMechanismDefinition[] = MECHANISM_TYPES.map((t) => DEFINITIONS[t]);

/** The method schemas as a tuple, for zod's discriminated union (which keeps each member's type). */
export const METHOD_SCHEMAS = [
  reconstructionPrivacy.schema,
  uniformPerturbation.schema,
  betaPrivacy.schema,
  safeKAnonymity.schema,
  partitionedRecoding.schema,
  globalRecoding.schema,
  microaggregation.schema,
  dpCounts.schema,
] as const;

export function isMechanismType(type: string): type is MechanismType {
  return Object.hasOwn(DEFINITIONS, type);
}

export function definitionOf<T extends MechanismType>(type: T): (typeof DEFINITIONS)[T] {
  return DEFINITIONS[type];
}

export function metadataOf(type: string): MechanismMetadata | undefined {
  return isMechanismType(type) ? DEFINITIONS[type].metadata : undefined;
}
