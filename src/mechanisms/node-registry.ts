/**
 * The registry of mechanisms, Node part: how each runs, is verified and draws
 * its report section, looked up by the job's method.type.
 */
import type { NodeMechanism } from '../jobs/method-kit/node-mechanism.js';
import { betaPrivacyNode } from './beta-privacy/node/index.js';
import type { MechanismType, MethodSpecs } from './definitions.js';
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
