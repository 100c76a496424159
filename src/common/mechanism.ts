import type { z } from 'zod';
import type { ReportSectionName } from './report/report-model.js';

/**
 * What a mechanism says about itself, in plain words, for the wizard's method
 * cards, the report and the README. One record per mechanism, beside its schema.
 */
export interface MechanismMetadata {
  /** The job's method.type: also the mechanism's folder name and its key in the wizard and the registries. */
  readonly type: string;
  /** The report's title for the method. */
  readonly title: string;
  /** The method card's title. */
  readonly cardTitle: string;
  readonly protects: string;
  readonly costs: string;
  /** The guarantee in one sentence, as the method card states it. */
  readonly guarantee: string;
  /** Differential privacy: an exact statistic of the input (its size) is outside the guarantee and never published. */
  readonly differentiallyPrivate: boolean;
  /** Which sensitive columns the mechanism needs: exactly one, at least one, or none (it protects identities). */
  readonly sensitiveColumns: 'one' | 'some' | 'none';
  /** The source, by authors, title and year. */
  readonly source: string;
  /** The report sections the mechanism adds (their schemas are in the report model). */
  readonly reportSections: readonly ReportSectionName[];
  /**
   * What the method assumes the attacker knows, and what it protects, in one sentence the disclosure
   * review states ({sensitive}: the job's sensitive columns).
   */
  readonly attackerKnowledge: string;
  /**
   * How the release carries a sensitive column: 'as-collected' (its values as read, beside the
   * quasi-identifiers: the review counts its rare and homogeneous values) or 'protected' (perturbed,
   * bucketized or not released as records).
   */
  readonly sensitiveRelease: 'as-collected' | 'protected';
}

/**
 * A mechanism's environment-free part: its parameter schema (the job's
 * `method` object), the checks that span several parameters, and its metadata.
 * The renderer, the job loader and verify all use this one definition.
 */
export interface MechanismDefinition<S extends z.ZodObject<z.ZodRawShape> = z.ZodObject<z.ZodRawShape>> {
  readonly metadata: MechanismMetadata;
  readonly schema: S;
  /**
   * A method to start from where the schema has no default (retention, k…): the wizard's first
   * draft is the schema's parse of it, so every default is written once, in the schema.
   */
  readonly suggested: z.input<S>;
  /** Checks that involve several parameters (zod's discriminated union takes plain objects only). */
  readonly refine?: (method: z.output<S>, ctx: z.RefinementCtx) => void;
}

/** Any mechanism's definition, for registries: a refine of a particular method type fits `never`. */
export interface AnyMechanismDefinition {
  readonly metadata: MechanismMetadata;
  readonly schema: z.AnyZodObject;
  readonly suggested: Readonly<Record<string, unknown>>;
  readonly refine?: (method: never, ctx: z.RefinementCtx) => void;
}
