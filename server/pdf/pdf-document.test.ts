/** PDF documents (minutes, decision letters): layout read back from the PDF, text safety, limits. */
import { extractTextItems } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { PDF_LIMITS, type PdfDocumentSpec, renderPdf, toWinAnsi } from './pdf-document.ts';
import { type PdfStructureNode, pdfInfo, pdfStructure, pdfText } from './pdf-text.ts';

const createdAt = new Date('2026-03-05T14:30:00Z');
const HEADER = 'Northwind Health Plan - Credentialing';
const TABLE_HEADER = 'Committee item Provider Decision';

const id = (n: number) => String(n).padStart(3, '0');
/** 150 decisions; every tenth provider cell wraps over several lines. */
const decisions = Array.from({ length: 150 }, (_, i) => [
  `Item ${id(i + 1)}`,
  `Dr. Provider ${id(i + 1)}${i % 10 === 0 ? `, note: ${'the file was complete and all sources verified. '.repeat(3)}` : ''}`,
  i % 3 === 0 ? 'Deferred' : 'Approved',
]);

/** Committee minutes with every block kind; the decisions table runs over several pages. */
function minutes(overrides: Partial<PdfDocumentSpec> = {}): PdfDocumentSpec {
  return {
    title: 'Credentialing Committee Minutes',
    subject: 'Meeting of 5 March 2026',
    createdAt,
    header: HEADER,
    blocks: [
      { kind: 'heading', text: 'Attendees' },
      { kind: 'list', items: ['Dr. Ada Chair (chair)', 'Dr. Ben Member', 'Cy Analyst (minutes)'] },
      { kind: 'heading', text: 'Meeting', level: 2 },
      {
        kind: 'facts',
        rows: [
          { label: 'Date', value: '5 March 2026, 2:30 PM' },
          { label: 'Quorum', value: 'Present: 5 of 7 voting members' },
        ],
      },
      {
        kind: 'paragraph',
        text: 'The committee reviewed the files below.\nDecisions are final unless appealed.',
      },
      { kind: 'spacer' },
      { kind: 'heading', text: 'Decisions' },
      {
        kind: 'table',
        columns: ['Committee item', 'Provider', 'Decision'],
        widths: [1, 3, 1],
        rows: decisions,
      },
      { kind: 'paragraph', text: 'Minutes approved by the chair.' },
    ],
    ...overrides,
  };
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** The text of each page: `pdfText` ends every page with its footer 'Page N of M'. */
function pagesOf(text: string): string[] {
  return text.split(/Page \d+ of \d+\n?/).slice(0, -1);
}

describe('renderPdf', () => {
  it('draws every block kind and numbers every page', async () => {
    const bytes = await renderPdf(minutes());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages } = await pdfInfo(bytes);
    const text = await pdfText(bytes);

    expect(text.startsWith('Credentialing Committee Minutes\n')).toBe(true);
    for (const part of ['Attendees\n', 'Meeting\n', 'Decisions\n', 'Minutes approved by the chair.']) {
      expect(text).toContain(part);
    }
    expect(text).toContain('Date 5 March 2026, 2:30 PM\n');
    expect(text).toContain('Quorum Present: 5 of 7 voting members\n');
    expect(text).toContain('The committee reviewed the files below.\nDecisions are final unless appealed.\n');
    for (const item of ['Dr. Ada Chair (chair)', 'Dr. Ben Member', 'Cy Analyst (minutes)']) {
      expect(text).toContain(`• ${item}\n`);
    }
    expect(text).toContain('Item 001 Dr. Provider 001, note: the file was complete');
    expect(text).toContain('Item 150 Dr. Provider 150 Approved\n');
    // Every row once, none lost or drawn twice at a page break.
    for (const [item] of decisions) expect(count(text, `${item} `)).toBe(1);

    const pageTexts = pagesOf(text);
    expect(pageTexts).toHaveLength(pages);
    const footers = [...text.matchAll(/Page \d+ of \d+/g)].map(([footer]) => footer);
    expect(footers).toEqual(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}`));
    expect(count(text, HEADER)).toBe(pages);

    // The table runs over 3+ pages, each starting with the header row.
    const tablePages = pageTexts.filter((page) => /Item \d{3}/.test(page));
    expect(tablePages.length).toBeGreaterThanOrEqual(3);
    for (const page of tablePages) {
      expect(count(page, TABLE_HEADER)).toBe(1);
      expect(page.indexOf(TABLE_HEADER)).toBeLessThan(page.search(/Item \d{3}/));
    }
  });

  it('keeps all text inside the margins: the header above, the footer below, the body between', async () => {
    const { items } = await extractTextItems(new Uint8Array(await renderPdf(minutes())));
    // PDF space: origin at the bottom left, y is the baseline; Letter is 612 x 792 pt, margins 54.
    const misplaced = items.flat().filter(({ str, x, y, width }) => {
      if (str.trim() === '') return false;
      const zone = str === HEADER ? y > 738 : /^Page \d+ of \d+$/.test(str) ? y < 54 : y > 54 && y < 738;
      return !zone || x < 54 - 0.01 || x + width > 558 + 0.01;
    });
    expect(items.flat().length).toBeGreaterThan(200);
    expect(misplaced).toEqual([]);
  });

  it('continues a row taller than a page on the next pages, below the repeated header', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${id(i + 1)}`);
    const bytes = await renderPdf({
      title: 'Tall row',
      createdAt,
      blocks: [
        {
          kind: 'table',
          columns: ['Committee item', 'Provider', 'Decision'],
          rows: [
            ['first', words.join('\n'), 'first'],
            ['last', 'after', 'last'],
          ],
        },
      ],
    });
    const text = await pdfText(bytes);
    for (const word of words) expect(count(text, word)).toBe(1);
    const pages = pagesOf(text);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const page of pages) expect(count(page, TABLE_HEADER)).toBe(1);
    expect(text).toContain('first w001\n');
    expect(text).toContain('last after last\n');
  });

  it('is tagged: headings, facts, tables, lists and paragraphs in reading order, the repeated header an artifact', async () => {
    const bytes = await renderPdf(minutes());
    const pages = await pdfStructure(bytes);
    expect(pages.length).toBeGreaterThan(2);
    const roles = (node: PdfStructureNode): string[] => [node.role, ...node.children.flatMap(roles)];
    const firstPage = pages[0]!.children[0]!;
    expect(firstPage.role).toBe('Document');
    expect(firstPage.children.map((c) => c.role)).toEqual([
      'H1',
      'H2',
      'L',
      'H3',
      'Table',
      'P',
      'H2',
      'Table',
    ]);
    expect(firstPage.children[2]!.children.map((li) => li.children.map((c) => c.role))).toEqual([
      ['Lbl', 'LBody'],
      ['Lbl', 'LBody'],
      ['Lbl', 'LBody'],
    ]);
    // The facts block: one row per fact, the label a row header.
    expect(firstPage.children[4]!.children.map((tr) => tr.children.map((c) => c.role))).toEqual([
      ['TH', 'TD'],
      ['TH', 'TD'],
    ]);
    // PDF.js gives each page the elements with content on it, their cells with content as Span
    // children. The decisions' header row is drawn again on later pages as an artifact, not tagged,
    // so a screen reader reads it once: no header cell has content past page 1.
    const cellsWithContent = (node: PdfStructureNode, role: string): number =>
      (node.role === role && node.children.some((c) => c.role === 'Span') ? 1 : 0) +
      node.children.reduce((sum, c) => sum + cellsWithContent(c, role), 0);
    expect(cellsWithContent(pages[0]!, 'TH')).toBe(2 + 3); // the facts' labels, the decisions' header
    expect(pages.slice(1).map((page) => cellsWithContent(page, 'TH'))).toEqual(pages.slice(1).map(() => 0));
    const dataCells = pages.reduce((sum, page) => sum + cellsWithContent(page, 'TD'), 0);
    expect(dataCells).toBeGreaterThanOrEqual(2 + 150 * 3);
    expect(roles(pages.at(-1)!)).toContain('P'); // 'Minutes approved by the chair.'
  });

  it('writes the footer line at the bottom left of every page, the page number at the right', async () => {
    const footer = `Snapshot version 3 · SHA-256 ${'0123456789abcdef'.repeat(4)}`;
    const bytes = await renderPdf(minutes({ footer }));
    const { pages } = await pdfInfo(bytes);
    const items = await extractTextItems(new Uint8Array(bytes));
    for (let page = 0; page < pages; page++) {
      const onPage = items.items[page]!;
      const line = onPage.find((i) => i.str.startsWith('Snapshot version 3'));
      const number = onPage.find((i) => i.str === `Page ${page + 1} of ${pages}`);
      expect(line?.str).toBe(footer);
      expect(line!.x).toBeCloseTo(54, 0);
      expect(number!.x + number!.width).toBeCloseTo(612 - 54, 0);
      expect(number!.y).toBeCloseTo(line!.y, 0);
    }
  });

  it('sets the document info from the spec; the same spec gives the same bytes', async () => {
    const bytes = await renderPdf(minutes());
    expect(await pdfInfo(bytes)).toEqual({
      pages: expect.any(Number),
      title: 'Credentialing Committee Minutes',
      subject: 'Meeting of 5 March 2026',
      author: 'Credentialing team',
      producer: 'Credentialing Portal',
      createdAt,
    });
    expect((await renderPdf(minutes())).equals(bytes)).toBe(true);

    const letter = await pdfInfo(
      await renderPdf({ title: 'Decision — Zoë 李', author: 'Dr. Ada Chair', createdAt, blocks: [] }),
    );
    // The document info is Unicode: only the drawn text is limited to WinAnsi.
    expect(letter).toMatchObject({
      pages: 1,
      title: 'Decision — Zoë 李',
      author: 'Dr. Ada Chair',
      subject: undefined,
    });
  });

  it('draws text outside WinAnsi with ? placeholders, and drops control characters', async () => {
    const name = 'Zoë 李 😀 O’Brien — café';
    const bytes = await renderPdf({
      title: name,
      createdAt,
      blocks: [
        { kind: 'heading', text: name },
        { kind: 'paragraph', text: `${name}\r\nTab\tstop, bell\u0007 and NUL\u0000 gone` },
        { kind: 'facts', rows: [{ label: name, value: name }] },
        { kind: 'table', columns: [name], rows: [[name]] },
        { kind: 'list', items: [name] },
      ],
    });
    const text = await pdfText(bytes);
    expect(count(text, 'Zoë ? ? O’Brien — café')).toBe(8);
    expect(text).not.toMatch(/[李😀]/u);
    expect(text).toContain('Tab stop, bell and NUL gone\n');
  });

  it('refuses input beyond the limits with a message naming the field', async () => {
    const long = 'x'.repeat(PDF_LIMITS.textChars + 1);
    const paragraph = { kind: 'paragraph', text: 'p' } as const;
    await expect(
      renderPdf(minutes({ blocks: Array(PDF_LIMITS.blocks + 1).fill(paragraph) })),
    ).rejects.toThrow('renderPdf: 5001 blocks; at most 5000');
    await expect(renderPdf(minutes({ title: long }))).rejects.toThrow(
      'renderPdf: title has 100001 characters; at most 100000',
    );
    const table = {
      kind: 'table',
      columns: ['a', 'b', 'c'],
      rows: [
        ['1', '2', '3'],
        ['4', '5', long],
      ],
    } as const;
    await expect(renderPdf(minutes({ blocks: [paragraph, table] }))).rejects.toThrow(
      'renderPdf: blocks[1].rows[1][2] has 100001 characters; at most 100000',
    );
    await expect(
      renderPdf(minutes({ blocks: [{ kind: 'list', items: Array(5001).fill('i') }] })),
    ).rejects.toThrow('renderPdf: blocks[0].items has 5001 entries; at most 5000');
    await expect(renderPdf(minutes({ blocks: [{ ...table, rows: [['1', '2']] }] }))).rejects.toThrow(
      'renderPdf: blocks[0].rows[0] has 2 cells; the table has 3 columns',
    );
    await expect(renderPdf(minutes({ blocks: [{ ...table, widths: [1, 100, 1] }] }))).rejects.toThrow(
      /blocks\[0\]\.widths give a column 4\.9 pt wide/,
    );
    const fat = { kind: 'paragraph', text: 'word '.repeat(PDF_LIMITS.textChars / 5) } as const;
    await expect(renderPdf(minutes({ blocks: Array(21).fill(fat) }))).rejects.toThrow(
      'renderPdf: more than 2000000 characters in all',
    );
    await expect(renderPdf(minutes({ createdAt: new Date('not a date') }))).rejects.toThrow(
      'renderPdf: createdAt is not a valid Date',
    );
  });

  it('renders a text of exactly the limit, a word wider than the page included', async () => {
    const text = `${'y'.repeat(1000)}${' word'.repeat(19_800)}`;
    expect(text).toHaveLength(PDF_LIMITS.textChars);
    const bytes = await renderPdf({ title: 'Long', createdAt, blocks: [{ kind: 'paragraph', text }] });
    const extracted = await pdfText(bytes);
    expect(count(extracted, 'word')).toBe(19_800);
    expect(count(extracted.replace(/\n/g, ''), 'y'.repeat(1000))).toBe(1);
  });
});

describe('toWinAnsi', () => {
  // WinAnsi (PDF 32000-1, annex D) without controls: printable Latin-1 and 27 characters in 0x80-0x9F.
  // The soft hyphen (0xAD) is left out: it is a format character, dropped. (Node's TextDecoder
  // cannot build this: it decodes 'windows-1252' as Latin-1.)
  const latin1 = (from: number, to: number) =>
    String.fromCharCode(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
  const winAnsi = `${latin1(0x20, 0x7e)}${latin1(0xa0, 0xff).replace('\u00AD', '')}€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ`;

  it('leaves WinAnsi text as it is, smart quotes, dashes, euro and bullet included', () => {
    expect(winAnsi).toHaveLength(95 + 95 + 27);
    expect(toWinAnsi(winAnsi)).toBe(winAnsi);
    expect(toWinAnsi(`${winAnsi}李`)).toBe(`${winAnsi}?`);
    expect(toWinAnsi('O’Brien — café\n\tLine two')).toBe('O’Brien — café\n\tLine two');
  });

  it('puts one ? for each character the standard fonts cannot draw', () => {
    expect(toWinAnsi('Zoë 李 😀 O’Brien — café')).toBe('Zoë ? ? O’Brien — café');
    expect(toWinAnsi('李白')).toBe('??');
    // One user-perceived character, one ?: a ZWJ family, a flag, a skin tone, a variation selector,
    // a consonant with its vowel sign.
    expect(toWinAnsi('👨‍👩‍👧 🇺🇸 👍🏽 ❤️ कि')).toBe('? ? ? ? ?');
  });

  it('composes (NFC), and folds look-alikes and accents the fonts lack to their base letters', () => {
    expect(toWinAnsi('Zoe\u0308')).toBe('Zoë');
    expect(toWinAnsi('Dvořák, Nguyễn, Łódź')).toBe('Dvorák, Nguyen, ?ódz');
    expect(toWinAnsi('ﬁle: −5, non\u2011breaking, 10\u202F000, 5\u2032')).toBe(
      "file: -5, non-breaking, 10 000, 5'",
    );
  });

  it('drops control and format characters except newline and tab; CR LF becomes LF', () => {
    expect(toWinAnsi('a\u0000b\u0007c\r\nd\re\tf\u0085g\u007F')).toBe('abc\nd\ne\tfg');
    expect(toWinAnsi('co\u00ADop\u200Ber\uFEFF\u200E')).toBe('cooper');
  });

  it('gives only WinAnsi characters for any input, in linear time', () => {
    const sample = Array.from({ length: 0x110000 / 97 }, (_, i) => i * 97)
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => String.fromCodePoint(c))
      .join(' ');
    const allowed = new Set(`\t\n${winAnsi}`);
    const out = toWinAnsi(sample);
    expect([...out].filter((c) => !allowed.has(c))).toEqual([]);
    expect(out).toContain('?');
    const started = performance.now();
    // 99,999 UTF-16 code units, 66,666 characters (each emoji is two code units).
    expect(toWinAnsi('李😀'.repeat(33_333))).toBe('??'.repeat(33_333));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
