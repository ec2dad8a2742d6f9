/**
 * `Content-Disposition: attachment` for a download (issue 4, RFC 6266 + RFC 5987): an ASCII
 * `filename` fallback with every character outside printable ASCII, quotes, backslashes and path
 * separators replaced by '_', and the exact UTF-8 name in `filename*`.
 */

/** e.g. `attachment; filename="Lebenslauf_M_ller.pdf"; filename*=UTF-8''Lebenslauf%20M%C3%BCller.pdf` */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\/;%]/g, '_').trim() || 'document';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
