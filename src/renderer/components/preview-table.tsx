import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { CustosApi, OpenedFile } from '../../common/ipc/api.js';
import { formatNumber } from '../format.js';

const PAGE = 200;
const ROW_HEIGHT = 28;

/**
 * The input as a virtualized table: only visible rows are in the DOM and rows
 * are fetched from the host a page at a time, so a million rows scroll smoothly.
 */
export function PreviewTable(props: { api: CustosApi; file: OpenedFile }) {
  const { api, file } = props;
  const parent = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState<ReadonlyMap<number, readonly (readonly string[])[]>>(new Map());
  const requested = useRef(new Set<number>());
  useEffect(() => {
    setPages(new Map());
    requested.current = new Set();
  }, [file.fileId]);
  const virtualizer = useVirtualizer({ count: file.rows, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    const needed = new Set(items.map((i) => Math.floor(i.index / PAGE)));
    for (const page of needed) {
      if (requested.current.has(page)) continue;
      requested.current.add(page);
      void api.rows({ fileId: file.fileId, offset: page * PAGE, count: PAGE }).then((result) => {
        if (result.ok) setPages((old) => new Map(old).set(page, result.value));
      });
    }
  }, [items, api, file.fileId]);
  const columns = file.columns;
  const template = `64px repeat(${columns.length}, minmax(110px, 1fr))`;
  const width = 64 + columns.length * 120;
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
            const row = pages.get(Math.floor(item.index / PAGE))?.[item.index % PAGE];
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
                {columns.map((c, j) => (
                  <span role="cell" key={c.name}>
                    {row ? (row[j] === '' ? <em className="missing">missing</em> : row[j]) : '…'}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
