import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CustosApi, OpenedFile } from '../../common/ipc/api.js';
import { formatNumber } from '../../common/format/numbers.js';

const PAGE = 200;
const ROW_HEIGHT = 28;
/** Horizontal padding of a cell (8px each side) plus room for the header's bold weight. */
const CELL_PADDING = 22;
const MIN_COLUMN = 64;
/** Wider values (free text) are cut here with the whole value on hover, so one column cannot push the rest out of reach. */
const MAX_COLUMN = 480;

/** The text's width in the table's font: measured where a canvas exists, estimated elsewhere. */
function textWidth(): (text: string) => number {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (!context) return (text) => text.length * 8;
  context.font = `600 13px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  return (text) => context.measureText(text).width;
}

/** Each column as wide as its name and its most frequent values (all of them for small columns), within bounds. */
function columnWidths(file: OpenedFile): number[] {
  const measure = textWidth();
  return file.columns.map((c) => {
    const widest = Math.max(measure(c.name), measure('missing'), ...c.top.map((t) => measure(t.value)));
    return Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, Math.ceil(widest + CELL_PADDING)));
  });
}

/**
 * The input as a virtualized table: only visible rows are in the DOM and rows
 * are fetched from the host a page at a time, so a million rows scroll smoothly.
 */
export function PreviewTable(props: { api: CustosApi; file: OpenedFile }) {
  const { api, file } = props;
  const parent = useRef<HTMLDivElement>(null);
  // Pages belong to one reading of one file: rows of an earlier reading are never shown under new headers.
  const [loaded, setLoaded] = useState<{ readonly fileId: string; readonly pages: ReadonlyMap<number, readonly (readonly string[])[]> }>({ fileId: file.fileId, pages: new Map() });
  const pages = loaded.fileId === file.fileId ? loaded.pages : undefined;
  const requested = useRef({ fileId: file.fileId, pages: new Set<number>() });
  if (requested.current.fileId !== file.fileId) requested.current = { fileId: file.fileId, pages: new Set() };
  const virtualizer = useVirtualizer({ count: file.rows, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    const needed = new Set(items.map((i) => Math.floor(i.index / PAGE)));
    const fileId = file.fileId;
    for (const page of needed) {
      if (requested.current.pages.has(page)) continue;
      requested.current.pages.add(page);
      void api.rows({ fileId, offset: page * PAGE, count: PAGE }).then((result) => {
        // A late answer for a file no longer shown is dropped, so it cannot replace the current pages.
        if (!result.ok || requested.current.fileId !== fileId) return;
        setLoaded((old) => ({ fileId, pages: new Map(old.fileId === fileId ? old.pages : []).set(page, result.value) }));
      });
    }
  }, [items, api, file.fileId]);
  const columns = file.columns;
  const widths = useMemo(() => columnWidths(file), [file]);
  const rownumWidth = Math.max(48, Math.ceil(formatNumber(file.rows).length * 8 + CELL_PADDING));
  const template = `${rownumWidth}px ${widths.map((w) => `minmax(${w}px, 1fr)`).join(' ')}`;
  const width = rownumWidth + widths.reduce((a, b) => a + b, 0);
  return (
    <div className="preview">
      {/* One scroll container for header and rows, so wide tables scroll horizontally in step. */}
      <div
        ref={parent}
        className="preview-scroll"
        role="table"
        tabIndex={0}
        aria-label={`Preview of ${file.name}: ${formatNumber(file.rows)} records (scroll to see more)`}
        aria-rowcount={file.rows + 1}
      >
        <div role="rowgroup" className="preview-head-group" style={{ minWidth: width }}>
          <div className="preview-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            <span role="columnheader">#</span>
            {columns.map((c) => (
              <span role="columnheader" key={c.name} title={c.name}>
                {c.name}
              </span>
            ))}
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: width }}>
          {items.map((item) => {
            const row = pages?.get(Math.floor(item.index / PAGE))?.[item.index % PAGE];
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                className="preview-row"
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <span role="cell" className="rownum">
                  {formatNumber(item.index + 1)}
                </span>
                {columns.map((c, j) => {
                  const value = row?.[j];
                  return (
                    <span role="cell" key={c.name} title={value !== undefined && value.length > 40 ? value : undefined}>
                      {value === undefined ? '…' : value === '' ? <em className="missing">missing</em> : value}
                    </span>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
