/**
 * PDF documents the portal writes: committee meeting minutes, decision letters to providers and,
 * later, the credentialing file summary. A document is plain data (`PdfDocumentSpec`: a title and a
 * list of blocks); `renderPdf` lays it out with pdfkit on US Letter (612 x 792 pt) with 54 pt
 * margins, in the standard Helvetica fonts (nothing to embed), with 'Page N of M' on every page.
 *
 * The layout is ours, not pdfkit's text flow: every text is wrapped into lines here, so a table row
 * can continue on the next page under a repeated header row, and every page break is decided in
 * one place (`Layout.ensure`). All lengths below are in points (1/72 inch).
 *
 * Tagged PDF (ISO 32000-1 §14.8, issue 33 item 1): the body is a structure tree a screen reader reads
 * in order: Document > H1/H2, P, L > LI > LBody, Table > TR > TH/TD (the facts block is a two-column
 * table, label as a row header), each drawn line a Span in its element. Rules, shading and the page
 * header and footer are marked as artifacts (not read). The document's language is en-US.
 */
import type PDFDocument from 'pdfkit';

/** One block of a document's body, drawn in order from the top of page 1. */
export type PdfBlock =
  /** Bold, 14 pt (level 1, the default) or 12 pt (level 2); kept on a page with what follows. */
  | { kind: 'heading'; text: string; level?: 1 | 2 }
  /** 10 pt text, wrapped at the page width; `\n` starts a new line. */
  | { kind: 'paragraph'; text: string }
  /** Label: value pairs: the label bold in a 150 pt column, the value wrapped in the rest. */
  | { kind: 'facts'; rows: ReadonlyArray<{ label: string; value: string }> }
  /**
   * A ruled table over the page width: the header row bold and shaded, cells wrapped; a row that
   * does not fit continues on a new page, below the header row repeated. `widths` are relative
   * (e.g. `[1, 3, 1]`), one per column; equal by default.
   */
  | {
      kind: 'table';
      columns: readonly string[];
      rows: ReadonlyArray<readonly string[]>;
      widths?: readonly number[];
    }
  /** A bulleted list, one item per entry. */
  | { kind: 'list'; items: readonly string[] }
  /** 12 pt of vertical space. */
  | { kind: 'spacer' };

/** What `renderPdf` draws. Time is an input: `createdAt` is the document's CreationDate. */
export interface PdfDocumentSpec {
  title: string;
  subject?: string;
  /** The document info's Author; 'Credentialing team' when absent. */
  author?: string;
  createdAt: Date;
  /** One line at the top of every page (e.g. the organization's name); cut at the page width. */
  header?: string;
  /**
   * One line at the bottom left of every page (e.g. the snapshot's version and hash), 'Page N of M'
   * then at the bottom right instead of centred; cut to leave the page number room.
   */
  footer?: string;
  blocks: readonly PdfBlock[];
}

/** Input bounds: `renderPdf` throws beyond them (characters are UTF-16 code units). */
export const PDF_LIMITS = {
  blocks: 5000,
  /** Rows of a table or a facts block, items of a list. */
  rows: 5000,
  columns: 12,
  /** Any one text: the title, a cell, a paragraph... */
  textChars: 100_000,
  /** All texts of a document together (about 800 pages). */
  totalChars: 2_000_000,
} as const;

const PRODUCT = 'Credentialing Portal';
const PAGE = { width: 612, height: 792, margin: 54 };
const LEFT = PAGE.margin;
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BODY_TOP = PAGE.margin;
const BODY_BOTTOM = PAGE.height - PAGE.margin;
const FACT_LABEL_WIDTH = 150;
const FACT_GAP = 10;
const BULLET_INDENT = 14;
const CELL_PADDING = 4;
const MIN_COLUMN_WIDTH = 24;

/** Font, size and line height (leading), in points. */
interface TextStyle {
  font: 'Helvetica' | 'Helvetica-Bold';
  size: number;
  leading: number;
  color?: string;
}
const TEXT = {
  title: { font: 'Helvetica-Bold', size: 18, leading: 22 },
  h1: { font: 'Helvetica-Bold', size: 14, leading: 18 },
  h2: { font: 'Helvetica-Bold', size: 12, leading: 15 },
  body: { font: 'Helvetica', size: 10, leading: 13 },
  label: { font: 'Helvetica-Bold', size: 10, leading: 13 },
  cell: { font: 'Helvetica', size: 9, leading: 11.5 },
  headerCell: { font: 'Helvetica-Bold', size: 9, leading: 11.5 },
  margin: { font: 'Helvetica', size: 8, leading: 10, color: '#444444' },
} satisfies Record<string, TextStyle>;

/**
 * A PDF of `spec`: US Letter, 54 pt margins, the title at the top of page 1, the header line (if
 * any) at the top and 'Page N of M' at the bottom of every page. Document info: Title, Subject,
 * Author, CreationDate = `createdAt`, Creator and Producer 'Credentialing Portal'. Every text goes
 * through `toWinAnsi` first (the standard fonts draw nothing else); the document info keeps Unicode.
 * The same spec gives the same bytes (the file ID is a hash of the document info).
 *
 * @throws Error naming the offending field when the spec is beyond `PDF_LIMITS`, a table row has
 *   the wrong number of cells, a width is not positive or leaves a column under 24 pt, or
 *   `createdAt` is not a valid date.
 */
export async function renderPdf(spec: PdfDocumentSpec): Promise<Buffer> {
  checkSpec(spec);
  // Loaded on the first PDF, not at start-up (about 32 MB and 0.14 s on Node 24; decision 032).
  const { default: PdfKit } = (await import('pdfkit')) as { default: typeof PDFDocument };
  const doc = new PdfKit({
    size: 'LETTER',
    margin: PAGE.margin,
    bufferPages: true,
    displayTitle: true,
    lang: 'en-US',
    tagged: true,
    info: {
      Title: clean(spec.title),
      // Absent, not undefined: pdfkit hashes every info key into the file ID and throws on undefined.
      ...(spec.subject !== undefined && { Subject: clean(spec.subject) }),
      Author: clean(spec.author ?? 'Credentialing team'),
      Creator: PRODUCT,
      Producer: PRODUCT,
      CreationDate: spec.createdAt,
    },
  });
  const chunks: Uint8Array[] = [];
  doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const layout = new Layout(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);
  layout.within(root, 'H1', () =>
    layout.flow(TEXT.title, layout.wrap(TEXT.title, spec.title, CONTENT_WIDTH), LEFT),
  );
  layout.y += 10;
  for (const block of spec.blocks) drawBlock(layout, root, block);
  root.end();

  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    layout.artifact('Pagination', () => {
      if (spec.header)
        layout.line(TEXT.margin, layout.wrap(TEXT.margin, spec.header, CONTENT_WIDTH)[0]!, LEFT, 30);
      const pageNumber = `Page ${page + 1} of ${count}`;
      const numberWidth = layout.widthOf(TEXT.margin, pageNumber);
      if (spec.footer) {
        const room = CONTENT_WIDTH - numberWidth - 12;
        layout.line(TEXT.margin, layout.wrap(TEXT.margin, spec.footer, room)[0]!, LEFT, BODY_BOTTOM + 18);
      }
      const x = spec.footer ? LEFT + CONTENT_WIDTH - numberWidth : (PAGE.width - numberWidth) / 2;
      layout.line(TEXT.margin, pageNumber, x, BODY_BOTTOM + 18);
    });
  }
  doc.end();
  return done;
}

const WIN_ANSI = /^[\t\n\x20-\x7E\xA0-\xAC\xAE-\xFF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/;
/** C0 and C1 controls and DEL, except tab and LF. */
const CONTROLS = /[^\P{Cc}\t\n]/gu;
/** Look-alikes that compatibility decomposition (NFKD) leaves outside WinAnsi. */
const SUBSTITUTES: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u2015': '—',
  '\u2032': "'",
  '\u2033': '"',
  '\u2044': '/',
  '\u2028': '\n',
  '\u2029': '\n',
};
/**
 * An emoji with its modifiers and joined parts (👨‍👩‍👧, 🇺🇸, 👍🏽, ❤️): one character to the reader. Node
 * 20+ runs the `v` flag, but it is ES2024, past tsconfig's target: tsc rejects it in a literal.
 */
const UNICODE_SETS: string = 'v';
const EMOJI = new RegExp('\\p{RGI_Emoji}', `g${UNICODE_SETS}`);
const NOT_WIN_ANSI = /[^\t\n\x20-\x7E\xA0-\xAC\xAE-\xFF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;

/**
 * `text` in the characters the standard 14 PDF fonts can draw: WinAnsi (Windows-1252, PDF 32000-1
 * annex D), i.e. Latin-1 plus the typographic quotes, dashes, bullet, ellipsis, euro and a few more.
 *
 * CR LF and CR become LF; other control characters (C0, DEL, C1) are dropped except LF and tab.
 * The rest is NFC-normalized. An emoji sequence becomes one '?'. Any other character outside
 * WinAnsi becomes its compatibility decomposition without accents or format characters when that
 * is WinAnsi (ﬁ -> fi, ř -> r, a non-breaking hyphen -> -, a thin space -> space), so a combining
 * mark, a soft hyphen, a zero-width space or a BOM disappears; and '?' otherwise (李 -> ?, Ł -> ?).
 * Linear time (Intl.Segmenter would be simpler, but V8's is quadratic in the text's length).
 */
export function toWinAnsi(text: string): string {
  const plain = text.replace(/\r\n?/g, '\n').replace(CONTROLS, '').normalize('NFC');
  if (WIN_ANSI.test(plain)) return plain;
  return plain.replace(EMOJI, '?').replace(NOT_WIN_ANSI, (char) => {
    const folded = (SUBSTITUTES[char] ?? char).normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, '');
    return WIN_ANSI.test(folded) ? folded : '?';
  });
}

/** Text for the document info, which is Unicode: only controls dropped and NFC. */
function clean(text: string): string {
  return text.replace(CONTROLS, '').normalize('NFC');
}

/** The cursor on the current page, and the one place that breaks pages. */
class Layout {
  /** Top of the next line, in points from the top of the page. */
  y = BODY_TOP;
  /** Where this page's body starts (below a repeated table header): nothing breaks before it. */
  top = BODY_TOP;

  /** The structure element the lines drawn now belong to (each line a Span in it); null for artifacts. */
  private parent: PDFKit.PDFStructureElement | null = null;
  private inArtifact = false;

  readonly doc: PDFKit.PDFDocument;

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  /** Runs `draw` with its lines tagged as a new `type` element, child of `parent`; returns the element. */
  within(
    parent: PDFKit.PDFStructureElement,
    type: string,
    draw: (element: PDFKit.PDFStructureElement) => void,
  ): PDFKit.PDFStructureElement {
    const element = this.doc.struct(type);
    parent.add(element);
    const outer = this.parent;
    this.parent = element;
    try {
      draw(element);
    } finally {
      this.parent = outer;
    }
    element.end();
    return element;
  }

  /** Runs `draw` with its lines tagged in `element` (made and ended by the caller). */
  into(element: PDFKit.PDFStructureElement, draw: () => void): void {
    const outer = this.parent;
    this.parent = element;
    try {
      draw();
    } finally {
      this.parent = outer;
    }
  }

  /** Runs `draw` as an artifact (rules, shading, page header and footer): not read by screen readers. */
  artifact(type: 'Pagination' | 'Layout', draw: () => void): void {
    // pdfkit closes an open artifact when another starts: an artifact inside one is part of it.
    if (this.inArtifact) {
      draw();
      return;
    }
    const outer = this.parent;
    this.inArtifact = true;
    this.parent = null;
    this.doc.markContent('Artifact', { type });
    try {
      draw();
    } finally {
      this.doc.endMarkedContent();
      this.parent = outer;
      this.inArtifact = false;
    }
  }

  newPage(): void {
    this.doc.addPage();
    this.y = this.top = BODY_TOP;
  }

  /** Starts a new page unless `height` fits below the cursor or nothing is on this page yet. */
  ensure(height: number): void {
    if (this.y + height > BODY_BOTTOM && this.y > this.top) this.newPage();
  }

  widthOf(style: TextStyle, text: string): number {
    return this.doc.font(style.font).fontSize(style.size).widthOfString(text);
  }

  /** One line at (x, y), never wrapped and never moved to another page by pdfkit. */
  line(style: TextStyle, text: string, x: number, y: number): void {
    this.doc
      .font(style.font)
      .fontSize(style.size)
      .fillColor(style.color ?? 'black')
      .text(text, x, y, {
        lineBreak: false,
        ...(this.parent && { structParent: this.parent, structType: 'Span' }),
      });
  }

  /** Lines at `x`, one below the other from the cursor, continuing on new pages. */
  flow(style: TextStyle, lines: string[], x: number): void {
    for (const text of lines) {
      this.ensure(style.leading);
      this.line(style, text, x, this.y);
      this.y += style.leading;
    }
  }

  /**
   * `text` (through `toWinAnsi`) broken into lines at most `width` wide: at spaces, inside a word
   * only when the word alone is wider. At least one line, maybe empty. Tabs become four spaces:
   * pdfkit writes a character code below 0x10 as a single hex digit, garbling the rest of the line.
   */
  wrap(style: TextStyle, text: string, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of toWinAnsi(text).replaceAll('\t', '    ').split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (const word of paragraph.match(/ *[^ ]+/g) ?? []) {
        const wordWidth = this.widthOf(style, word);
        if (lineWidth + wordWidth <= width) {
          line += word;
          lineWidth += wordWidth;
          continue;
        }
        if (line) lines.push(line);
        const pieces = this.pieces(style, word.trimStart(), width);
        line = pieces.pop()!;
        lines.push(...pieces);
        lineWidth = this.widthOf(style, line);
      }
      lines.push(line);
    }
    return lines;
  }

  /** `word` cut between characters into pieces at most `width` wide (at least one character each). */
  private pieces(style: TextStyle, word: string, width: number): string[] {
    const pieces: string[] = [];
    let piece = '';
    for (const char of word) {
      if (piece && this.widthOf(style, piece + char) > width) {
        pieces.push(piece);
        piece = char;
      } else piece += char;
    }
    pieces.push(piece);
    return pieces;
  }
}

function drawBlock(layout: Layout, root: PDFKit.PDFStructureElement, block: PdfBlock): void {
  switch (block.kind) {
    case 'heading': {
      const style = block.level === 2 ? TEXT.h2 : TEXT.h1;
      const lines = layout.wrap(style, block.text, CONTENT_WIDTH);
      layout.y += layout.y > layout.top ? 6 : 0;
      layout.ensure(lines.length * style.leading + 2 * TEXT.body.leading);
      layout.within(root, block.level === 2 ? 'H3' : 'H2', () => layout.flow(style, lines, LEFT));
      layout.y += 4;
      return;
    }
    case 'paragraph':
      layout.within(root, 'P', () =>
        layout.flow(TEXT.body, layout.wrap(TEXT.body, block.text, CONTENT_WIDTH), LEFT),
      );
      layout.y += 6;
      return;
    case 'facts': {
      const valueX = LEFT + FACT_LABEL_WIDTH + FACT_GAP;
      layout.within(root, 'Table', (table) => {
        for (const { label, value } of block.rows) {
          const labels = layout.wrap(TEXT.label, label, FACT_LABEL_WIDTH);
          const values = layout.wrap(TEXT.body, value, LEFT + CONTENT_WIDTH - valueX);
          layout.within(table, 'TR', (row) => {
            const th = layout.doc.struct('TH');
            const td = layout.doc.struct('TD');
            row.add(th);
            row.add(td);
            for (let i = 0; i < Math.max(labels.length, values.length); i++) {
              layout.ensure(TEXT.body.leading);
              if (i < labels.length)
                layout.into(th, () => layout.line(TEXT.label, labels[i]!, LEFT, layout.y));
              if (i < values.length)
                layout.into(td, () => layout.line(TEXT.body, values[i]!, valueX, layout.y));
              layout.y += TEXT.body.leading;
            }
            th.end();
            td.end();
          });
          layout.y += 3;
        }
      });
      layout.y += 3;
      return;
    }
    case 'table':
      layout.within(root, 'Table', (table) => drawTable(layout, table, block));
      layout.y += 8;
      return;
    case 'list':
      layout.within(root, 'L', (list) => {
        for (const item of block.items) {
          layout.ensure(TEXT.body.leading);
          layout.within(list, 'LI', (li) => {
            layout.within(li, 'Lbl', () => layout.line(TEXT.body, '•', LEFT + 3, layout.y));
            layout.within(li, 'LBody', () =>
              layout.flow(
                TEXT.body,
                layout.wrap(TEXT.body, item, CONTENT_WIDTH - BULLET_INDENT),
                LEFT + BULLET_INDENT,
              ),
            );
          });
          layout.y += 2;
        }
      });
      layout.y += 4;
      return;
    case 'spacer':
      layout.y += 12;
      return;
    default:
      throw new Error(`renderPdf: unknown block kind ${JSON.stringify((block as { kind: unknown }).kind)}`);
  }
}

function drawTable(
  layout: Layout,
  table: PDFKit.PDFStructureElement,
  block: Extract<PdfBlock, { kind: 'table' }>,
): void {
  const doc = layout.doc;
  const widths = columnWidths(block);
  const cells = (texts: readonly string[], style: TextStyle) =>
    texts.map((text, i) => layout.wrap(style, text, widths[i]! - 2 * CELL_PADDING));
  const header = cells(block.columns, TEXT.headerCell);
  const heightOf = (lines: number) => lines * TEXT.cell.leading + 2 * CELL_PADDING;
  const headerHeight = heightOf(Math.max(...header.map((c) => c.length)));
  // A header taller than a third of the page is drawn once only: repeated, it would crowd out rows.
  const repeatHeader = headerHeight <= (BODY_BOTTOM - BODY_TOP) / 3;

  /**
   * One row, split across pages when it is taller than the room left: its lines carry on below.
   * `row` is the TR element the cells' lines are tagged in; a repeated header row is an artifact
   * (null), so a screen reader reads the header once.
   */
  const drawRow = (
    cellLines: string[][],
    isHeader: boolean,
    row: PDFKit.PDFStructureElement | null,
  ): void => {
    const style = isHeader ? TEXT.headerCell : TEXT.cell;
    const elements = row ? cellLines.map(() => doc.struct(isHeader ? 'TH' : 'TD')) : [];
    for (const element of elements) row!.add(element);
    const total = Math.max(1, ...cellLines.map((c) => c.length));
    for (let from = 0; from < total; ) {
      const room = Math.floor((BODY_BOTTOM - layout.y - 2 * CELL_PADDING) / style.leading);
      if (room < total - from && layout.y > layout.top) {
        layout.newPage();
        if (!isHeader && repeatHeader) {
          layout.artifact('Layout', () => drawRow(header, true, null));
          layout.top = layout.y;
        }
        continue;
      }
      const lines = Math.max(1, Math.min(room, total - from));
      const height = heightOf(lines);
      let x = LEFT;
      cellLines.forEach((cell, i) => {
        const width = widths[i]!;
        layout.artifact('Layout', () => {
          if (isHeader) doc.rect(x, layout.y, width, height).fill('#e8e8e8');
          doc.rect(x, layout.y, width, height).lineWidth(0.5).stroke('#777777');
        });
        const draw = () =>
          cell.slice(from, from + lines).forEach((text, k) => {
            layout.line(style, text, x + CELL_PADDING, layout.y + CELL_PADDING + k * style.leading);
          });
        if (elements[i]) layout.into(elements[i]!, draw);
        else draw();
        x += width;
      });
      layout.y += height;
      from += lines;
    }
    for (const element of elements) element.end();
  };

  layout.ensure(headerHeight + heightOf(1));
  layout.within(table, 'TR', (row) => drawRow(header, true, row));
  for (const cellTexts of block.rows) {
    layout.within(table, 'TR', (row) => drawRow(cells(cellTexts, TEXT.cell), false, row));
  }
}

/** Column widths in points, summing to the page's content width. */
function columnWidths(table: Extract<PdfBlock, { kind: 'table' }>): number[] {
  const relative = table.widths ?? table.columns.map(() => 1);
  const sum = relative.reduce((a, b) => a + b, 0);
  return relative.map((w) => (w / sum) * CONTENT_WIDTH);
}

function checkSpec(spec: PdfDocumentSpec): void {
  const fail = (message: string): never => {
    throw new Error(`renderPdf: ${message}`);
  };
  if (!(spec.createdAt instanceof Date) || Number.isNaN(spec.createdAt.getTime())) {
    fail('createdAt is not a valid Date');
  }
  if (spec.blocks.length > PDF_LIMITS.blocks) {
    fail(`${spec.blocks.length} blocks; at most ${PDF_LIMITS.blocks}`);
  }
  let total = 0;
  const text = (where: string, value: string | undefined) => {
    const length = value?.length ?? 0;
    if (length > PDF_LIMITS.textChars)
      fail(`${where} has ${length} characters; at most ${PDF_LIMITS.textChars}`);
    total += length;
    if (total > PDF_LIMITS.totalChars) fail(`more than ${PDF_LIMITS.totalChars} characters in all`);
  };
  const entries = (where: string, list: readonly unknown[]) => {
    if (list.length > PDF_LIMITS.rows)
      fail(`${where} has ${list.length} entries; at most ${PDF_LIMITS.rows}`);
  };
  text('title', spec.title);
  text('subject', spec.subject);
  text('author', spec.author);
  text('header', spec.header);
  for (const [b, block] of spec.blocks.entries()) {
    const at = `blocks[${b}]`;
    switch (block.kind) {
      case 'heading':
      case 'paragraph':
        text(`${at}.text`, block.text);
        break;
      case 'facts':
        entries(`${at}.rows`, block.rows);
        for (const [r, { label, value }] of block.rows.entries()) {
          text(`${at}.rows[${r}].label`, label);
          text(`${at}.rows[${r}].value`, value);
        }
        break;
      case 'list':
        entries(`${at}.items`, block.items);
        for (const [i, item] of block.items.entries()) text(`${at}.items[${i}]`, item);
        break;
      case 'table': {
        const columns = block.columns.length;
        if (columns < 1 || columns > PDF_LIMITS.columns) {
          fail(`${at}.columns has ${columns} columns; 1 to ${PDF_LIMITS.columns}`);
        }
        const widths = block.widths ?? [];
        if (block.widths && (widths.length !== columns || !widths.every((w) => w > 0 && w < Infinity))) {
          fail(`${at}.widths must be ${columns} positive numbers`);
        }
        const narrowest = Math.min(...columnWidths(block));
        if (narrowest < MIN_COLUMN_WIDTH) {
          fail(`${at}.widths give a column ${narrowest.toFixed(1)} pt wide; at least ${MIN_COLUMN_WIDTH}`);
        }
        for (const [c, column] of block.columns.entries()) text(`${at}.columns[${c}]`, column);
        entries(`${at}.rows`, block.rows);
        for (const [r, row] of block.rows.entries()) {
          if (row.length !== columns)
            fail(`${at}.rows[${r}] has ${row.length} cells; the table has ${columns} columns`);
          for (const [c, cell] of row.entries()) text(`${at}.rows[${r}][${c}]`, cell);
        }
        break;
      }
      case 'spacer':
        break;
      default:
        fail(`${at}.kind ${JSON.stringify((block as { kind: unknown }).kind)} is not a block kind`);
    }
  }
}
