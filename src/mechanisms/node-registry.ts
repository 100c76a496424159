/**
 * The registry of mechanisms, Node part: how each runs, is verified and draws
 * its report section, looked up by the job's method.type.
 */
import type { NodeMechanism } from '../jobs/method-kit/node-mechanism.js';
import { betaPrivacyNode } from './beta-privacy/node/index.js';
import type { RecordComparison } from '../common/mechanism.js';
import type { NodeComparison } from '../jobs/method-kit/compare-kit.js';
import { definitionOf, isMechanismType, type MechanismType, type MethodSpecs } from './definitions.js';
import { dpCountsNode } from './dp-counts/node/index.js';
import { globalRecodingNode } from './global-recoding/node/index.js';
import { microaggregationNode } from './microaggregation/node/index.js';
import { partitionedRecodingNode } from './partitioned-recoding/node/index.js';
import { reconstructionPrivacyNode } from './reconstruction-privacy/node/index.js';
import { safeKAnonymityNode } from './safe-k-anonymity/node/index.js';
import { uniformPerturbationNode } from './uniform-perturbation/node/index.js';

const NODE_MECHANISMS: { readonly [T in MechanismType]: NodeMechanism<MethodSpecs[T]> } = {
  'reconstruction-privacy': reconstructionPrivacyNode,
  'uniform-perturbation': uniformPerturbationNode,
  'beta-privacy': betaPrivacyNode,
  'safe-k-anonymity': safeKAnonymityNode,
  'partitioned-recoding': partitionedRecodingNode,
  'global-recoding': globalRecodingNode,
  microaggregation: microaggregationNode,
  'dp-counts': dpCountsNode,
};

/**
 * The Node part of a job's mechanism. The method object and the mechanism are
 * looked up by the same type, so the one cast here is the whole of the
 * correspondence the compiler cannot follow through an indexed union.
 */
export function nodeMechanismOf<T extends MechanismType>(type: T): NodeMechanism<MethodSpecs[T]> {
  return NODE_MECHANISMS[type];
}

/** How compare measures a method that releases records: its definition's part and its Node part, found by one type. */
export interface MechanismComparisonParts {
  readonly definition: RecordComparison;
  readonly node: NodeComparison;
}

/**
 * The compare parts of a method compare admits (candidates.ts skips the others before any work): asking
 * for those of a method that releases no records, or of no method, is a defect, never a silent default.
 */
export function comparedPartsOf(type: string): MechanismComparisonParts {
  const definition = isMechanismType(type) ? definitionOf(type).compare : undefined;
  const node = isMechanismType(type) ? NODE_MECHANISMS[type].compare : undefined;
  if (!definition?.releasesRecords || !node) throw new Error(`${type} is not compared: its release is not records`);
  return { definition, node };
}
