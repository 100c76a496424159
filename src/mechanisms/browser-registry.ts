/**
 * The registry of mechanisms, browser part: each mechanism's wizard form,
 * draft and checks, looked up by the job's method.type (the wizard's key).
 */
import type { BrowserMechanism } from '../renderer/components/browser-mechanism.js';
import { betaPrivacyBrowser } from './beta-privacy/browser/wizard.js';
import type { MechanismType, MethodSpecs } from './definitions.js';
import { dpCountsBrowser } from './dp-counts/browser/wizard.js';
import { globalRecodingBrowser } from './global-recoding/browser/wizard.js';
import { microaggregationBrowser } from './microaggregation/browser/wizard.js';
import { partitionedRecodingBrowser } from './partitioned-recoding/browser/wizard.js';
import { reconstructionPrivacyBrowser } from './reconstruction-privacy/browser/wizard.js';
import { safeKAnonymityBrowser } from './safe-k-anonymity/browser/wizard.js';
import { uniformPerturbationBrowser } from './uniform-perturbation/browser/wizard.js';

const BROWSER_MECHANISMS = {
  'reconstruction-privacy': reconstructionPrivacyBrowser,
  'uniform-perturbation': uniformPerturbationBrowser,
  'beta-privacy': betaPrivacyBrowser,
  'safe-k-anonymity': safeKAnonymityBrowser,
  'partitioned-recoding': partitionedRecodingBrowser,
  'global-recoding': globalRecodingBrowser,
  microaggregation: microaggregationBrowser,
  'dp-counts': dpCountsBrowser,
} as const;

/** The draft of each mechanism's form, keyed by method.type. */
export type Drafts = { readonly [T in MechanismType]: (typeof BROWSER_MECHANISMS)[T] extends BrowserMechanism<MethodSpecs[T], infer D> ? D : never };

/**
 * A mechanism's wizard part, typed by its key. The drafts map and this lookup
 * share the key, so a draft always reaches its own mechanism.
 */
export function browserMechanismOf<T extends MechanismType>(type: T): BrowserMechanism<MethodSpecs[T], Drafts[T]> {
  return BROWSER_MECHANISMS[type] as unknown as BrowserMechanism<MethodSpecs[T], Drafts[T]>;
}
