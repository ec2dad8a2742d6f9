import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition.ts';

describe('attachmentDisposition', () => {
  it('keeps a plain ASCII name in both parameters', () => {
    expect(attachmentDisposition('cv 2024.pdf')).toBe(
      `attachment; filename="cv 2024.pdf"; filename*=UTF-8''cv%202024.pdf`,
    );
  });

  it('replaces non-ASCII, quotes and separators in the fallback and encodes them exactly in filename*', () => {
    expect(attachmentDisposition('Müller "final"\\;(1)\'.pdf')).toBe(
      `attachment; filename="M_ller _final___(1)'.pdf"; filename*=UTF-8''M%C3%BCller%20%22final%22%5C%3B%281%29%27.pdf`,
    );
  });

  it('cannot inject a header line or a second parameter', () => {
    const value = attachmentDisposition('a\r\nSet-Cookie: x=1; filename=evil.exe');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value.split(';').filter((p) => p.includes('filename=')).length).toBe(1);
  });
});
