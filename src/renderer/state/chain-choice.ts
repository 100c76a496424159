/**
 * The wizard's chain: "protect identity, then the sensitive value" (issue 34, item 3). Two methods
 * in one job, `"method": [identity step, attribute step]`, the second run on the first's release
 * (src/mechanisms/chain.ts). The wizard keeps each step's form in its own draft, as for a single
 * method; the chain only says which two drafts the job holds. `state.method` stays the identity
 * step, so everything keyed by it (the hierarchy table, the release folder's name) follows the step
 * that recodes.
 */
import type { MechanismType } from '../../mechanisms/definitions.js';
import { definitionOf } from '../../mechanisms/definitions.js';

export interface ChainChoice {
  /** The first step: global recoding or microaggregation, on the quasi-identifiers. */
  readonly identity: MechanismType;
  /** The second step: an attribute method on the sensitive value of the groups the first released. */
  readonly attribute: MechanismType;
}

/** The job's methods in order: both steps of a chain, or the one method. */
export function jobMethodTypes(state: { readonly method: MechanismType; readonly chain?: ChainChoice | undefined }): readonly MechanismType[] {
  return state.chain ? [state.chain.identity, state.chain.attribute] : [state.method];
}

/** The Parameters step's heading of a chain's step (1-based). */
export function chainStepHeading(step: 1 | 2, type: MechanismType): string {
  const title = definitionOf(type).metadata.title;
  return step === 1 ? `1. Protect identity: ${title}` : `2. Then the sensitive value: ${title}`;
}

/** The chain in words, for the Method step's "Selected" line and the restored-draft notice. */
export function chainTitle(chain: ChainChoice): string {
  return `${definitionOf(chain.identity).metadata.title}, then ${definitionOf(chain.attribute).metadata.title}`;
}
