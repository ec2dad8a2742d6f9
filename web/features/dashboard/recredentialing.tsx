/**
 * Recredentialing on the provider's dashboard (issue 14): the due date of an approved application
 * (36 months after approval, NCQA CR 4) with 'Start Recredentialing' from 180 days before it, and,
 * on a draft pre-filled from an earlier application, what was copied and what to do next.
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import type { CopiedFrom } from '../../../domain/api/applications.ts';
import { recredentialingOpen } from '../../../domain/credentials/recredentialing.ts';
import { REVIEW_AND_CONFIRM } from '../../../domain/sections/section-confirmation.ts';
import { formatDate } from '../../format.ts';
import type { Application } from './applications-api.ts';

/** The toast text after a copy: 'Copied 11 sections and 4 documents from your application of Nov 24, 2023.' */
export function copiedSummary(copied: CopiedFrom): string {
  const sections = copied.sections.filter((key) => key !== 'documents').length;
  const parts = [`${sections} section${sections === 1 ? '' : 's'}`];
  if (copied.documents > 0) parts.push(`${copied.documents} document${copied.documents === 1 ? '' : 's'}`);
  return `Copied ${parts.join(' and ')} from your application of ${formatDate(copied.createdAt)}. Check each section and update what has changed.`;
}

/**
 * The warning after a copy whose documents were not all copied (their files were missing), or null:
 * 'These files could not be copied from your previous application: cv.pdf. Upload them again in Documents.'
 */
export function notCopiedSummary(copied: CopiedFrom): string | null {
  const names = copied.documentsNotCopied;
  if (names.length === 0) return null;
  return `${names.length === 1 ? 'This file' : 'These files'} could not be copied from your previous application: ${names.join(', ')}. Upload ${names.length === 1 ? 'it' : 'them'} again in Documents.`;
}

/**
 * The recredentialing line of an approved application; `open` when 'Start Recredentialing' is
 * offered (from 180 days before the due date). Null for any other application.
 */
export function recredentialingState(application: Application, now: Date) {
  if (!application.recredentialingDueOn) return null;
  return {
    dueOn: application.recredentialingDueOn,
    open: recredentialingOpen(application.recredentialingDueOn, now),
  };
}

/** 'Recredentialing due ...' under an approved application's status. */
export function RecredentialingNote({ dueOn, open }: { dueOn: string; open: boolean }) {
  return open ? (
    <Text size="sm" fw={500}>
      Recredentialing due {formatDate(dueOn)}. Start it now: your new application begins as a copy of this
      one, so you only update what has changed.
    </Text>
  ) : (
    <Text size="sm">Recredentialing due {formatDate(dueOn)}.</Text>
  );
}

/** On a draft pre-filled from an earlier application: where its content came from and what to check. */
export function CopiedFromCard({ source }: { source: Application | undefined }) {
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="copied-from-title"
      style={{ borderLeft: '6px solid var(--mantine-color-blue-8)' }}
    >
      <Stack gap="xs">
        <Title order={2} size="h3" id="copied-from-title">
          Pre-filled From Your Previous Application
        </Title>
        <Text size="sm">
          This application starts as a copy of your application
          {source ? ` of ${formatDate(source.createdAt)}` : ''}, documents included. Open each section marked
          '{REVIEW_AND_CONFIRM}', check it and update what has changed, such as renewed licenses, expiration
          dates, insurance and recent work history, then click {REVIEW_AND_CONFIRM} (saving confirms it too).
          A copied section counts towards your progress once confirmed.
        </Text>
      </Stack>
    </Card>
  );
}
