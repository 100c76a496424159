import { Fragment } from 'react';
import { formatNumber } from '../../common/format/numbers.js';
import { plainText, type Block, type Text } from '../../common/report/view-model.js';
import { BarChart } from './charts.js';
import { Callout } from './fields.js';

/**
 * A mechanism's view of a report (src/common/report/view-model.ts) as the wizard draws it: one
 * component per block kind, as the HTML report, the PDF and the workbook each have one case.
 */
export function ViewBlocks({ blocks }: { blocks: readonly Block[] }) {
  return (
    <>
      {blocks.map((block, i) => (
        <ViewBlock key={i} block={block} />
      ))}
    </>
  );
}

function ViewText({ text }: { text: Text }) {
  if (typeof text === 'string') return <>{text}</>;
  return (
    <>
      {text.map((piece, i) => {
        if (typeof piece === 'string') return <Fragment key={i}>{piece}</Fragment>;
        if ('data' in piece) return <Fragment key={i}>{String(piece.data)}</Fragment>;
        if ('strong' in piece) return <strong key={i}>{String(piece.strong)}</strong>;
        return (
          <span key={i} className={`verdict ${piece.verdict}`}>
            {piece.text}
          </span>
        );
      })}
    </>
  );
}

function ViewBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'heading':
      return block.level === 2 ? (
        <h3>
          <ViewText text={block.text} />
        </h3>
      ) : (
        <h4>
          <ViewText text={block.text} />
        </h4>
      );
    case 'paragraph':
      return (
        <p className={block.tone === 'meta' ? 'muted' : undefined}>
          <ViewText text={block.text} />
        </p>
      );
    case 'facts':
      return (
        <table className="grid facts">
          <tbody>
            {block.rows.map(
              (row) =>
                row && (
                  <tr key={plainText(row[0])}>
                    <th scope="row">
                      <ViewText text={row[0]} />
                    </th>
                    <td>
                      <ViewText text={row[1]} />
                    </td>
                  </tr>
                ),
            )}
          </tbody>
        </table>
      );
    case 'table':
      return (
        <table className="grid">
          <thead>
            <tr>
              {block.head.map((cell, i) => (
                <th key={i} scope="col" className={cell.n ? 'n' : undefined}>
                  <ViewText text={cell.text} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) => (
                  <td key={j} className={cell.n ? 'n' : cell.mono ? 'mono' : undefined}>
                    <ViewText text={cell.text} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'bars':
      return <BarChart title={block.title} bars={block.bars} />;
    case 'callout':
      return (
        <Callout tone={block.tone} {...(block.title ? { title: block.title } : {})}>
          <ViewText text={block.text} />
        </Callout>
      );
    case 'card':
      return (
        <section className="card">
          <ViewBlocks blocks={block.blocks} />
        </section>
      );
    case 'estimates':
      // The plot's points as a table: a row per group, a column per series of the legend.
      return (
        <table className="grid">
          <caption>{block.title}</caption>
          <thead>
            <tr>
              <th scope="col" />
              {block.legend.map((l) => (
                <th key={l.label} scope="col" className="n">
                  {l.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                {[r.truth, r.before, ...(r.after !== undefined ? [r.after] : [])].map((v, j) => (
                  <td key={j} className="n">
                    {formatNumber(v, 3)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
  }
}
