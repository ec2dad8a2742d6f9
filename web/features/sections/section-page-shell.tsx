/**
 * The frame every section screen shares (spec §2): a main landmark, the section title as the page's one
 * h1 with its description, and the load-failure state (loading shows the shared InlineLoader).
 */
import { Alert, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { createContext, type ReactNode, useContext } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import {
  credentialUpdateTexts,
  isCredentialUpdateSection,
} from '../../../domain/credentials/credential-updates.ts';
import type { Section } from '../../../domain/sections/registry.ts';
import { useCredentialUpdate } from '../../app/credential-update.ts';
import { type SectionLock, useSectionLock } from '../../app/provider-review.ts';
import { CopiedSectionConfirm } from '../../components/copied-section-confirm.tsx';
import { SectionLockNotice } from '../../components/section-lock-notice.tsx';
import { SubmitUpdateButton } from '../../components/submit-update-button.tsx';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const SectionLockContext = createContext<SectionLock>({ kind: 'editable' });

/**
 * Whether the screen's controls are off (issue 13): the application is past draft and this section is
 * not part of the open information request, or the lock is not known yet. The server refuses such
 * writes anyway (409); the screen does not offer them.
 */
export function useSectionReadOnly(): boolean {
  const lock = useContext(SectionLockContext);
  return lock.kind === 'loading' || lock.kind === 'locked';
}

/** A fieldset that disables every control inside it while the section is read-only. */
export function SectionFieldset({ children }: { children: ReactNode }) {
  const readOnly = useSectionReadOnly();
  return (
    <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {children}
    </fieldset>
  );
}

/** The search parameter of a dated section opened in update mode ('Update Credential', issue 29 item 4). */
export const UPDATE_MODE_PARAM = 'update';

/**
 * A dated section of the approved application whose credential is current (issue 29 item 4): instead
 * of the read-only dead end, 'Update Credential' opens it in update mode (`?update=1`): editable, with
 * what to do and 'Submit Update'. Null for every other section and state (the lock stands).
 */
function useCredentialUpdateMode(applicationId: string, section: Section, lock: SectionLock) {
  const [params, setParams] = useSearchParams();
  const applies = lock.kind === 'locked' && isCredentialUpdateSection(section.key);
  const status = useCredentialUpdate(applicationId, applies);
  // Not known yet: no notice at all, rather than the read-only one flashing first.
  if (applies && status.isPending) return 'pending' as const;
  if (!applies || !status.data?.allowed) return null;
  return {
    active: params.get(UPDATE_MODE_PARAM) === '1',
    start: () => setParams({ [UPDATE_MODE_PARAM]: '1' }, { replace: true }),
  };
}

function CredentialUpdateNotice({
  applicationId,
  mode,
}: {
  applicationId: string;
  mode: { active: boolean; start: () => void };
}) {
  const navigate = useNavigate();
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
          <Text size="sm">{credentialUpdateTexts.explanation}</Text>
          <SubmitUpdateButton applicationId={applicationId} onSent={() => navigate('/dashboard')} />
        </Stack>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{credentialUpdateTexts.offer}</Text>
          <Button onClick={mode.start}>{credentialUpdateTexts.updateCredential}</Button>
        </Stack>
      )}
    </Paper>
  );
}

export function SectionPageShell({ section, children }: { section: Section; children: ReactNode }) {
  const { applicationId = '' } = useParams();
  const sectionLock = useSectionLock(applicationId, section.key);
  const updateMode = useCredentialUpdateMode(applicationId, section, sectionLock);
  // In update mode the section is editable; the server's lock allows the same (review-lock.ts).
  const lock: SectionLock =
    updateMode === 'pending' ? { kind: 'loading' } : updateMode?.active ? { kind: 'editable' } : sectionLock;
  return (
    <main>
      <Container size="md" py="xl">
        <Stack>
          <div>
            <Title order={1} size="h2">
              {section.title}
            </Title>
            <Text c="dimmed">{capitalize(section.description)}</Text>
          </div>
          {updateMode && updateMode !== 'pending' ? (
            <CredentialUpdateNotice applicationId={applicationId} mode={updateMode} />
          ) : (
            <SectionLockNotice lock={lock} />
          )}
          <CopiedSectionConfirm applicationId={applicationId} sectionKey={section.key} />
          <SectionLockContext.Provider value={lock}>{children}</SectionLockContext.Provider>
        </Stack>
      </Container>
    </main>
  );
}

/** Shown instead of a form when the saved data could not be read: saving then could overwrite it. */
export function SectionLoadFailed() {
  return (
    <Alert color="red" variant="light" title="This section could not be loaded">
      Reload the page to try again. Nothing was changed.
    </Alert>
  );
}

/**
 * The form screens' footer (spec §2): 'Cancel' back to /dashboard and 'Save & Continue' ('Saving...' while
 * busy); only 'Back to Dashboard' while the section is read-only (issue 13).
 */
export function SaveCancelFooter({ saving }: { saving: boolean }) {
  const navigate = useNavigate();
  const readOnly = useSectionReadOnly();
  if (readOnly) {
    return (
      <Group>
        <Button variant="default" onClick={() => navigate('/dashboard')}>
          Back to Dashboard
        </Button>
      </Group>
    );
  }
  return (
    <Group justify="space-between">
      <Button variant="default" onClick={() => navigate('/dashboard')}>
        Cancel
      </Button>
      <Button type="submit" disabled={saving}>
        {saving ? 'Saving...' : 'Save & Continue'}
      </Button>
    </Group>
  );
}
