import type { CustosApi, Report } from '../../common/ipc/api.js';
import { Callout } from '../components/fields.js';
import { formatBytes, formatNumber } from '../../common/format/numbers.js';

export function ExportStep(props: { api: CustosApi; report: Report; runId: string; saveJob: () => void; desktop: boolean; internalDir?: string | undefined }) {
  const { api, report, runId } = props;
  const output = report.output!;
  return (
    <>
      <p className="lead">
        The release is in <code>{output.dir}</code>: {formatNumber(output.rows)} records, and only what may be published: the released data, the external report and manifest.json with every file's SHA-256, so an auditor can check it with <code>custos verify</code>.
        The internal report (confidential: true statistics and the input's checksum) is in {props.internalDir ? <code>{props.internalDir}</code> : 'a separate folder'}; keep it with the data, never publish it.
      </p>
      <table className="grid files">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col" className="n">Size</th>
            <th scope="col">SHA-256</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...output.files, { name: 'manifest.json', bytes: Number.NaN, sha256: '' }].map((f) => {
            const url = api.fileUrl(runId, f.name);
            return (
              <tr key={f.name}>
                <th scope="row">{f.name}</th>
                <td className="n">{Number.isFinite(f.bytes) ? formatBytes(f.bytes) : ''}</td>
                <td>
                  <code title={f.sha256}>{f.sha256 ? `${f.sha256.slice(0, 20)}…` : 'lists the others'}</code>
                </td>
                <td className="actions-cell">
                  {url && (
                    <>
                      {/\.(html|pdf)$/.test(f.name) && (
                        <a href={url} target="_blank" rel="noreferrer">
                          Open<span className="visually-hidden"> {f.name}</span>
                        </a>
                      )}
                      <a href={`${url}&download`} download={f.name}>
                        Download<span className="visually-hidden"> {f.name}</span>
                      </a>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="actions">
        <button type="button" className="primary" onClick={props.saveJob}>
          Save the job file
        </button>
        {props.desktop && (
          <button type="button" onClick={() => void api.revealFolder({ path: output.dir })}>
            Show the folder
          </button>
        )}
      </div>
      <Callout tone="info">
        To reproduce the run on the command line: <code>custos run job.json</code> with the saved job file. Reproducing repeats the process, not the noise: every run draws fresh randomness.
      </Callout>
    </>
  );
}
