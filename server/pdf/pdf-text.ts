/**
 * Reading a PDF back: its text and its document info, through unpdf (PDF.js built for servers: no
 * worker to configure, it runs in-process under Node, tsx and vitest). Used by the tests of what
 * `renderPdf` writes.
 *
 * Gotcha: PDF.js refuses a Node `Buffer` ("Please provide binary data as `Uint8Array`") and may
 * detach the buffer it is given; both functions hand it a copy.
 */
import { extractText, getDocumentProxy, getMeta } from 'unpdf';

/** What `pdfInfo` reads; absent fields were not in the document info. */
export interface PdfInfo {
  pages: number;
  title?: string;
  subject?: string;
  author?: string;
  producer?: string;
  createdAt?: Date;
}

/**
 * All the text of a PDF, page after page joined by '\n'. Each line drawn ends with '\n'; runs of
 * spaces and tabs are collapsed to one space (unpdf's merge).
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text;
}

/** The page count and the document info (Title, Subject, Author, Producer, CreationDate). */
export async function pdfInfo(bytes: Uint8Array): Promise<PdfInfo> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { info } = await getMeta(pdf, { parseDates: true });
    const field = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    return {
      pages: pdf.numPages,
      title: field(info.Title),
      subject: field(info.Subject),
      author: field(info.Author),
      producer: field(info.Producer),
      createdAt: info.CreationDate instanceof Date ? info.CreationDate : undefined,
    };
  } finally {
    await pdf.loadingTask.destroy(); // as unpdf does itself; this PDF.js build has no `pdf.destroy()`
  }
}

/** A node of a tagged PDF's structure tree: its role (H1, P, Table, TR, TD, ...) and children. */
export interface PdfStructureNode {
  role: string;
  children: PdfStructureNode[];
}

/**
 * The structure tree of a tagged PDF (ISO 32000-1 §14.7), page by page as PDF.js reads it: one root
 * per page holding the elements with content on that page. Marked-content leaves are left out, so a
 * node's children are elements only; `[]` for a page without tags.
 */
export async function pdfStructure(bytes: Uint8Array): Promise<PdfStructureNode[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  type Raw = { role?: string; children?: Raw[] };
  const toNode = (raw: Raw): PdfStructureNode => ({
    role: raw.role ?? '',
    children: (raw.children ?? []).filter((c) => typeof c.role === 'string').map(toNode),
  });
  try {
    const pages: PdfStructureNode[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const tree = (await (await pdf.getPage(n)).getStructTree()) as Raw | null;
      pages.push(tree ? toNode(tree) : { role: 'Root', children: [] });
    }
    return pages;
  } finally {
    await pdf.loadingTask.destroy();
  }
}
