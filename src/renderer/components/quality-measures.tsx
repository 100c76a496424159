import type { Report } from '../../common/ipc/api.js';
import { qualityWords } from '../../common/report/quality-words.js';

/** ARX's quality measures of the chosen recoding, in words (internal figures: they read the input's own values). */
export function QualityMeasures({ report }: { report: Report }) {
  const words = qualityWords(report);
  if (words.length === 0) return null;
  return (
    <section className="card">
      <h3>Quality of the recoding (ARX&apos;s measures, lower is better)</h3>
      <table className="grid facts">
        <tbody>
          {words.map(([label, value, meaning]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>
                {value}
                <div className="muted">{meaning}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
