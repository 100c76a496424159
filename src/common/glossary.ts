/**
 * The glossary (Help's "Words Custos uses") and the terms the app prints that need it, kept in one
 * place: `PRINTED_TERMS` lists each technical term the wizard, the reports and the command line print,
 * with the glossary entry that explains it; test/glossary-terms.test.ts finds every one in the code
 * that prints it and checks that its entry is here.
 */

/** Every term the wizard uses, each in one sentence a custodian can act on. */
export const GLOSSARY: readonly { readonly term: string; readonly meaning: string }[] = [
  { term: 'Identifier', meaning: 'A column that names a person or a record directly (name, record number); it is dropped from every release.' },
  { term: 'Quasi-identifier', meaning: 'A fact others may know about a person (age, sex, region, a date); together such facts can single a person out.' },
  { term: 'Sensitive column', meaning: 'What the release protects: the value nobody should learn about a person (a diagnosis, an income).' },
  { term: 'Domain', meaning: 'The values a column can take, as anyone may know them (every diagnosis code, not only those in this file); perturbation and fake values draw from it.' },
  { term: 'Micro group', meaning: 'The records that share every non-sensitive value; an adversary who knows a person’s values knows which micro group is theirs.' },
  { term: 'Retention p', meaning: 'The probability that a record keeps its true sensitive value; otherwise it gets a value drawn at random from the column’s domain.' },
  { term: 'ρ1–ρ2 privacy', meaning: 'An adversary who believed a value with probability at most ρ1 before the release cannot believe it with more than ρ2 after.' },
  { term: 'ε (reconstruction privacy)', meaning: 'The relative error by which an adversary’s estimate of a micro group’s share of a value must miss; larger is stricter.' },
  { term: 'δ (reconstruction privacy)', meaning: 'The level that the Chernoff upper bounds on the probability of that estimate missing by more than ε (above and below) must each reach; larger is stricter. The test compares bounds, not exact probabilities: it does not promise that the estimate misses with probability δ or more.' },
  { term: 's_g', meaning: 'The largest size at which a micro group passes the (ε, δ) test; larger groups are sampled down to it and scaled back.' },
  { term: 'β (β-privacy)', meaning: 'For each sensitive value, the largest probability with which an adversary may infer it; rare, very sensitive values get a small β.' },
  { term: 'Bucket', meaning: 'A group of records published together: the other columns show only which bucket a record is in, the sensitive values are listed per bucket.' },
  { term: 'Fake values', meaning: 'Values added to a bucket’s list that no record in it holds, so an adversary who knows some of its people cannot tell the rest by elimination.' },
  { term: 'Anatomy', meaning: 'A simpler bucketization (ℓ-diversity by buckets) shown beside β-privacy’s as a baseline.' },
  { term: 'Information loss of the buckets (Σ|B|², MSE)', meaning: 'How much bucketing blurs the data: the sum of the squared bucket sizes, and the mean squared error of a count estimated from the buckets; smaller is more useful.' },
  { term: 'k', meaning: 'Every combination of released quasi-identifier values is shared by at least k records.' },
  { term: 'Class (equivalence class)', meaning: 'The released records that share all their quasi-identifier values; k-anonymity asks every class to hold at least k records.' },
  { term: 'ℓ-diversity', meaning: 'Every class holds at least ℓ well-represented sensitive values, so knowing someone’s class does not tell their value.' },
  { term: 't-closeness', meaning: 'In every class the sensitive values are spread within a distance t of their spread in the whole table.' },
  { term: 'Re-identification risk (prosecutor, journalist)', meaning: 'The chance of naming the person behind a record: 1 divided by the size of its class. A prosecutor knows the person is in the file; a journalist knows only the population it was sampled from.' },
  { term: 'Generalization level', meaning: 'How coarsely a column is released: level 0 as collected, higher levels coarser (age 37 → 30–39 → *).' },
  { term: 'Hierarchy', meaning: 'The ladder of coarser values a column can be released at (37 → 30–39 → 30–59 → *), from a file or built from intervals, rounding, masking or dates.' },
  { term: 'Lattice', meaning: 'Every combination of the columns’ generalization levels; the search looks through it for the combination that meets the model and loses least.' },
  { term: 'Suppression limit', meaning: 'The largest share of records that may be deleted (with their class) so that fewer columns need coarsening.' },
  { term: 'Local suppression', meaning: 'Blanking single cells (released as “*”) instead of deleting whole records, until every record matches at least k others.' },
  { term: 'Frontier', meaning: 'The settings no other one beats on both counts: each has lower risk, or lower loss, than every setting beside it.' },
  { term: 'Utility measure (loss, discernibility, average class size, non-uniform entropy, precision)', meaning: 'How the recoding search counts what is lost: loss and precision by how far columns are coarsened, discernibility and average class size by how large classes grow, non-uniform entropy by how much information the coarser values lose.' },
  { term: 'Sampling rate β (safe k-anonymity)', meaning: 'The probability with which each record enters the release; the sample is what makes the release differentially private.' },
  { term: 'Differential privacy', meaning: 'A promise about the method, not the data: whether any one person is in the file changes the chance of any release only a little (by a factor e^ε, plus δ).' },
  { term: 'ε (differential privacy)', meaning: 'How much one person’s presence may change the chance of any release: at most a factor e^ε.' },
  { term: 'δ (differential privacy)', meaning: 'The small probability with which that bound may fail; it should be well below 1 divided by the number of records.' },
  { term: 'Microaggregation (MDAV)', meaning: 'Numeric columns replaced by the average of groups of at least k similar records; MDAV is the way the groups are formed.' },
  { term: 'Mean relative error', meaning: 'How far counts computed from the release are from the true counts, on average, as a share of the true count.' },
  { term: 'Disclosure review', meaning: 'The checks Custos makes of a release before it is written (direct identifiers, rare and homogeneous values); a failed check stops the run unless accepted with a reason.' },
  { term: 'Internal report', meaning: 'The confidential account of a run, with facts of the input; it stays with the data and is never published.' },
  { term: 'Release folder', meaning: 'What may be published: the protected data, the external report, the job and a manifest of checksums.' },
];

/**
 * The technical terms the app prints (the wizard, the reports, the command line), each as it is
 * found in the code that prints it, and the glossary entry that explains it. A new term printed
 * goes here and into GLOSSARY.
 */
export const PRINTED_TERMS: readonly { readonly printed: RegExp; readonly entry: string }[] = [
  { printed: /quasi-identifier/i, entry: 'Quasi-identifier' },
  { printed: /micro group/i, entry: 'Micro group' },
  { printed: /retention/i, entry: 'Retention p' },
  { printed: /ρ1–ρ2/, entry: 'ρ1–ρ2 privacy' },
  { printed: /s_g/, entry: 's_g' },
  { printed: /bucket/i, entry: 'Bucket' },
  { printed: /fake values/i, entry: 'Fake values' },
  { printed: /Anatomy/, entry: 'Anatomy' },
  { printed: /Σ\|B\|²/, entry: 'Information loss of the buckets (Σ|B|², MSE)' },
  { printed: /\bMSE\b/, entry: 'Information loss of the buckets (Σ|B|², MSE)' },
  { printed: /ℓ-diversity/, entry: 'ℓ-diversity' },
  { printed: /t-closeness/, entry: 't-closeness' },
  { printed: /prosecutor/i, entry: 'Re-identification risk (prosecutor, journalist)' },
  { printed: /journalist/i, entry: 'Re-identification risk (prosecutor, journalist)' },
  { printed: /hierarch/i, entry: 'Hierarchy' },
  { printed: /lattice/i, entry: 'Lattice' },
  { printed: /suppression limit/i, entry: 'Suppression limit' },
  { printed: /local suppression/i, entry: 'Local suppression' },
  { printed: /frontier/i, entry: 'Frontier' },
  { printed: /discernibility/i, entry: 'Utility measure (loss, discernibility, average class size, non-uniform entropy, precision)' },
  { printed: /average class size/i, entry: 'Utility measure (loss, discernibility, average class size, non-uniform entropy, precision)' },
  { printed: /non-uniform entropy/i, entry: 'Utility measure (loss, discernibility, average class size, non-uniform entropy, precision)' },
  { printed: /utility measure/i, entry: 'Utility measure (loss, discernibility, average class size, non-uniform entropy, precision)' },
  { printed: /differential privacy|differentially private/i, entry: 'Differential privacy' },
  { printed: /MDAV/, entry: 'Microaggregation (MDAV)' },
  { printed: /mean relative error/i, entry: 'Mean relative error' },
  { printed: /disclosure review/i, entry: 'Disclosure review' },
  { printed: /internal report/i, entry: 'Internal report' },
  { printed: /generaliz/i, entry: 'Generalization level' },
  { printed: /domain/i, entry: 'Domain' },
];
