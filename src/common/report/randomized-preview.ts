import { formatNumber, formatPercent } from '../format/numbers.js';
import type { ReportFigures } from '../mechanism.js';
import type { Report } from './report-model.js';
import { data, type Block } from './view-model.js';

/**
 * The risk step's preview of the randomized-response methods: per sensitive column, the micro
 * groups plain randomized response would leak, and (where the release meets the (ε,δ) test) how
 * many this release leaves.
 */
export function randomizedPreview(report: Report, figures: Pick<ReportFigures, 'releaseMeetsReconstructionTest'>): Block[] {
  const meets = figures.releaseMeetsReconstructionTest;
  return (report.risk.bySensitive ?? []).map((s): Block => {
    const before = s.violatingBefore ?? Number.NaN;
    const after = s.violatingAfter ?? 0;
    return {
      kind: 'card',
      blocks: [
        { kind: 'heading', level: 2, text: ['“', data(s.column), '”'] },
        {
          kind: 'paragraph',
          text: [
            data(formatNumber(s.microGroups)),
            ' micro groups (records sharing every non-sensitive value). Under plain randomized response at p = ',
            data(s.retention),
            ', ',
            { strong: formatNumber(s.violatingBefore) },
            ' of them (',
            data(formatPercent(s.violatingRowsBefore ?? Number.NaN, report.input.rows ?? Number.NaN)),
            ' of records) could be reconstructed',
            ...(meets ? ['; reconstruction privacy brings this to ', { strong: formatNumber(s.violatingAfter) }, '.'] : ['.']),
          ],
        },
        {
          kind: 'bars',
          title: 'Micro groups that leak',
          bars: [
            { label: 'plain randomized response', value: before, tone: 'danger', text: formatNumber(before) },
            ...(meets ? [{ label: 'reconstruction privacy', value: after, tone: 'safe' as const, text: formatNumber(after) }] : []),
          ],
        },
        ...((s.unprotectableGroups ?? 0) > 0 ? [{ kind: 'callout', tone: 'warn', text: [data(formatNumber(s.unprotectableGroups)), ' group(s) cannot be protected at these parameters and will be suppressed.'] } as const] : []),
      ],
    };
  });
}
