/**
 * The notice at the top of a section or documents screen of the approved application whose
 * credential is current (issue 29 item 4): before 'Update Credential' is pressed, the offer and the
 * button; in update mode (`?update=1`), what to do and 'Submit Update' (then back to the dashboard).
 * Shown instead of the read-only notice (SectionLockNotice), so no screen of a dated credential is a
 * dead end. A section screen in update mode also links to the documents screen in update mode, where
 * the renewed license or certificate is uploaded. Mode and lock come from app/credential-update.ts
 * `useSectionEditing`, one rule for both screens.
 */
import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { credentialUpdateTexts } from '../../domain/credentials/credential-updates.ts';
import { sectionCatalog, sectionPath } from '../../domain/sections/section-catalog.ts';
import { type CredentialUpdateMode, credentialUpdateHref } from '../app/credential-update.ts';
import { SubmitUpdateButton } from './submit-update-button.tsx';

export function CredentialUpdateNotice({
  applicationId,
  sectionKey,
  mode,
}: {
  applicationId: string;
  /** The screen's section key (`documents` for the documents screen): chooses its words. */
  sectionKey: string;
  mode: CredentialUpdateMode;
}) {
  const navigate = useNavigate();
  const onDocuments = sectionKey === 'documents';
  const texts = onDocuments ? credentialUpdateTexts.documents : credentialUpdateTexts;
  return (
    <Paper
      withBorder
      p="md"
      role="region"
      aria-label={credentialUpdateTexts.updateCredential}
      style={{ borderLeft: '6px solid var(--mantine-color-blue-8)' }}
    >
      <Text fw={600} mb={4}>
        {credentialUpdateTexts.updateCredential}
      </Text>
      {mode.active ? (
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{texts.explanation}</Text>
          {!onDocuments && (
            <Anchor
              component={Link}
              to={credentialUpdateHref(sectionPath(sectionCatalog.documents, applicationId))}
              size="sm"
              underline="always"
            >
              {credentialUpdateTexts.documentsLink}
            </Anchor>
          )}
          <SubmitUpdateButton applicationId={applicationId} onSent={() => navigate('/dashboard')} />
        </Stack>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{texts.offer}</Text>
          <Button onClick={mode.start}>{credentialUpdateTexts.updateCredential}</Button>
        </Stack>
      )}
    </Paper>
  );
}
