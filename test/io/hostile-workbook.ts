import { zip } from './zip-writer.js';

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const STRINGS = ['name', 'town', 'Ann', 'Bern', 'Chur'];

/**
 * A workbook of one sheet, its strings shared: A1:B1 the header, then six rows of "Ann" and a town;
 * B7's index is `index` (the cell given as `cell`, or without r when undefined).
 */
export function hostileWorkbook(index: string, options: { sheetName?: string; cellRef?: string | null } = {}): Buffer {
  const sheetName = options.sheetName ?? 'Sheet1';
  const rows = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'];
  for (let r = 2; r <= 7; r++) {
    const b = r === 7 ? index : String(3 + (r % 2));
    const ref = r === 7 && options.cellRef !== undefined ? (options.cellRef === null ? '' : ` r="${options.cellRef}"`) : ` r="B${r}"`;
    rows.push(`<row r="${r}"><c r="A${r}" t="s"><v>2</v></c><c${ref} t="s"><v>${b}</v></c></row>`);
  }
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet ${NS}><dimension ref="A1:B7"/><sheetData>${rows.join('')}</sheetData></worksheet>`;
  const sst = `<?xml version="1.0" encoding="UTF-8"?><sst ${NS} count="${STRINGS.length}" uniqueCount="${STRINGS.length}">${STRINGS.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;
  const types =
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>';
  const rels = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
  const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook ${NS} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const workbookRels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(types) },
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(workbookRels) },
    { name: 'xl/sharedStrings.xml', data: Buffer.from(sst) },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet) },
  ]);
}
