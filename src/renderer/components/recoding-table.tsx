import type { ColumnInfo } from '../../common/ipc/api.js';
import { own, type Named } from '../../common/job/names.js';
import type { Problems } from './browser-mechanism.js';
import { checkKey, NO_HIERARCHY, recodingExample, type HierarchyCheck, type HierarchyChoice } from './recoding.js';

/** The file's own name: a long path is clipped at its end in the field, where the name is. */
function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/**
 * The per-column generalization table the recoding mechanisms share: a
 * hierarchy per column (ARX file, intervals, rounding, masking, dates) and its fixed level.
 */
export function RecodingTable(props: {
  columns: readonly ColumnInfo[];
  choices: Named<HierarchyChoice>;
  onChange: (column: string, patch: Partial<HierarchyChoice>) => void;
  problems: Problems;
  /** Levels are chosen by the private search, not typed. */
  searched: boolean;
  chooseFile?: (() => Promise<string | null>) | undefined;
  /** The host's checks of hierarchy files, for their number of levels. */
  checks?: Named<HierarchyCheck> | undefined;
  fileId?: string;
}) {
  return (
    <table className="grid hierarchy-table">
      <caption>Generalization per column</caption>
      <thead>
        <tr>
          <th scope="col">Column</th>
          <th scope="col">Hierarchy</th>
          <th scope="col">Definition</th>
          <th scope="col" className="n">Level</th>
          <th scope="col">Preview</th>
        </tr>
      </thead>
      <tbody>
        {props.columns.map((c) => {
          const h = own(props.choices, c.name) ?? NO_HIERARCHY;
          const set = (patch: Partial<HierarchyChoice>) => props.onChange(c.name, patch);
          const problem = own(props.problems, `hierarchy.${c.name}`);
          const check = h.kind === 'file' && props.checks && props.fileId !== undefined ? own(props.checks, c.name) : undefined;
          const levels = check && check.key === checkKey(props.fileId!, h.file) ? check.levels : undefined;
          return (
            <tr key={c.name} className={problem ? 'bad' : undefined}>
              <th scope="row">{c.name}</th>
              <td>
                <select aria-label={`Hierarchy of ${c.name}`} value={h.kind} onChange={(e) => set({ kind: e.target.value as HierarchyChoice['kind'], level: e.target.value === 'none' ? 0 : Math.max(1, h.level) })}>
                  <option value="none">none: as collected</option>
                  <option value="file">ARX hierarchy file</option>
                  <option value="interval">intervals (numbers)</option>
                  <option value="rounding">rounding down to multiples (numbers)</option>
                  <option value="masking">masking (codes)</option>
                  <option value="date">dates (month, year, decade)</option>
                </select>
              </td>
              <td>
                {h.kind === 'file' && <input type="text" aria-label={`Hierarchy file of ${c.name}`} title={h.file} value={h.file} placeholder="/path/hierarchy.csv" onChange={(e) => set({ file: e.target.value })} />}
                {h.kind === 'file' && h.file.trim() !== '' && (
                  <p className="muted file-name">
                    {fileName(h.file.trim())}
                    {levels !== undefined ? ` · ${levels} level${levels === 1 ? '' : 's'} above the values` : ''}
                  </p>
                )}
                {h.kind === 'file' && props.chooseFile && (
                  <button type="button" onClick={() => void props.chooseFile!().then((path) => path && set({ file: path }))}>
                    Choose…<span className="visually-hidden"> the hierarchy file of {c.name}</span>
                  </button>
                )}
                {h.kind === 'interval' && (
                  <>
                    <input type="text" aria-label={`Interval widths of ${c.name}`} value={h.widths} onChange={(e) => set({ widths: e.target.value })} />
                    <input type="text" inputMode="numeric" className="short" aria-label={`Bottom code of ${c.name}`} title="Bottom coding: values below it read “<value” (empty: none)" placeholder="bottom" value={h.bottom} onChange={(e) => set({ bottom: e.target.value })} />
                    <input type="text" inputMode="numeric" className="short" aria-label={`Top code of ${c.name}`} title="Top coding: values from it read “value+” (empty: none)" placeholder="top" value={h.top} onChange={(e) => set({ top: e.target.value })} />
                  </>
                )}
                {h.kind === 'rounding' && (
                  <input type="text" aria-label={`Rounding bases of ${c.name}`} title="Level i rounds down to a multiple of the i-th base (37 → 35 at 5); each base a multiple of the one before" value={h.bases} onChange={(e) => set({ bases: e.target.value })} />
                )}
                {h.kind === 'date' && <span className="muted">year-month → year → decade → *</span>}
                {h.kind === 'masking' && <input type="number" aria-label={`Code length of ${c.name}`} min={1} max={64} value={h.length} onChange={(e) => set({ length: Number(e.target.value) })} />}
                {problem && <p className="error-text">{problem}</p>}
              </td>
              <td className="n">
                {h.kind !== 'none' && (props.searched ? <span className="muted">searched</span> : <input type="number" aria-label={`Level of ${c.name}`} min={0} max={64} value={h.level} onChange={(e) => set({ level: Number(e.target.value) })} />)}
              </td>
              <td className="muted">{recodingExample(c.top[0]?.value, h, props.searched)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
