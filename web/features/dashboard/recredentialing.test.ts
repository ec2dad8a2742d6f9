/** The toasts after 'Start Recredentialing' copied an earlier application (issue 14 copy-forward). */
import { describe, expect, it } from 'vitest';
import type { CopiedFrom } from '../../../domain/api/applications.ts';
import { copiedSummary, notCopiedSummary } from './recredentialing.tsx';

const copied = (over: Partial<CopiedFrom> = {}): CopiedFrom => ({
  applicationId: '6f1c2a52-8d0e-4a57-9a53-3c1c1a0b7e11',
  createdAt: '2023-11-24T15:00:00.000Z',
  sections: ['personalInformation', 'professionalLicenses', 'documents'],
  documents: 1,
  documentsNotCopied: [],
  ...over,
});

describe('copy-forward toasts', () => {
  it('sums up the sections and documents copied', () => {
    expect(copiedSummary(copied())).toBe(
      'Copied 2 sections and 1 document from your application of Nov 24, 2023. Check each section and update what has changed.',
    );
  });

  it('names the files that could not be copied, and says nothing when all were', () => {
    expect(notCopiedSummary(copied())).toBeNull();
    expect(notCopiedSummary(copied({ documentsNotCopied: ['cv.pdf'] }))).toBe(
      'This file could not be copied from your previous application: cv.pdf. Upload it again in Documents.',
    );
    expect(notCopiedSummary(copied({ documentsNotCopied: ['cv.pdf', 'dea.png'] }))).toBe(
      'These files could not be copied from your previous application: cv.pdf, dea.png. Upload them again in Documents.',
    );
  });
});
