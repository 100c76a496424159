import type { NotCompared } from '../../common/mechanism.js';

/** Its release is noisy answers: the pool's count queries cannot be asked of it. */
export const comparison: NotCompared = {
  releasesRecords: false,
  why: 'releases noisy answers, not records',
};
