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
