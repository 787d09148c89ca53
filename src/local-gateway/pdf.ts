// A small PDF writer for the report's PDF format: a landscape table listing over as many pages as the
// rows need. Written by hand because a table of plain text needs only the base-14 Helvetica font and a
// few objects; a PDF library would be the largest dependency of the product for this one page.

const PAGE_WIDTH = 842; // A4 landscape, in points
const PAGE_HEIGHT = 595;
const MARGIN = 36;
const FONT_SIZE = 7;
const LINE = 10;

/** Text in WinAnsi (Latin-1 subset) with PDF string escapes; other characters become '?'. */
function pdfText(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c === 0x7f) out += ' ';
    else if (c > 0xff) out += '?';
    else if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

/** Helvetica is about half an em wide on average; cut with an ellipsis rather than overprint the next column. */
function fit(s: string, width: number): string {
  const max = Math.max(1, Math.floor(width / (FONT_SIZE * 0.55)));
  const one = s.replace(/\s+/g, ' ');
  return one.length <= max ? one : `${one.slice(0, max - 3)}...`;
}

export interface PdfTable {
  title: string;
  subtitle: string;
  columns: string[];
  /** Relative column widths; scaled to the page. */
  widths: number[];
  rows: string[][];
}

function pageContent(t: PdfTable, rows: string[][], pageNo: number, pages: number, xs: number[], ws: number[]): string {
  const ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN;
  const text = (font: string, size: number, x: number, yy: number, s: string) =>
    ops.push(`BT /${font} ${size} Tf ${x.toFixed(1)} ${yy.toFixed(1)} Td (${pdfText(s)}) Tj ET`);
  text('F2', 12, MARGIN, y - 12, t.title);
  text('F1', 8, MARGIN, y - 24, `${t.subtitle}    page ${pageNo} of ${pages}`);
  y -= 44;
  t.columns.forEach((c, i) => text('F2', FONT_SIZE, xs[i], y, fit(c, ws[i] - 4)));
  ops.push(`0.5 w ${MARGIN} ${(y - 3).toFixed(1)} m ${PAGE_WIDTH - MARGIN} ${(y - 3).toFixed(1)} l S`);
  for (const row of rows) {
    y -= LINE;
    row.forEach((v, i) => text('F1', FONT_SIZE, xs[i], y, fit(v, ws[i] - 4)));
  }
  return ops.join('\n');
}

export const ROWS_PER_PAGE = Math.floor((PAGE_HEIGHT - 2 * MARGIN - 44) / LINE) - 1;

export function renderPdf(t: PdfTable): Buffer {
  const total = t.widths.reduce((a, b) => a + b, 0) || 1;
  const ws = t.widths.map((w) => (w / total) * (PAGE_WIDTH - 2 * MARGIN));
  const xs = ws.map((_, i) => MARGIN + ws.slice(0, i).reduce((a, b) => a + b, 0));
  const chunks: string[][][] = [];
  for (let i = 0; i < t.rows.length; i += ROWS_PER_PAGE) chunks.push(t.rows.slice(i, i + ROWS_PER_PAGE));
  if (chunks.length === 0) chunks.push([]);

  // Objects 1-4 are fixed; each page adds a page object and its content stream.
  const objects: string[] = [];
  const pageIds = chunks.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${chunks.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  chunks.forEach((rows, i) => {
    const content = pageContent(t, rows, i + 1, chunks.length, xs, ws);
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });

  // Every string here is Latin-1, so its length in characters is its length in bytes: the xref offsets hold.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
