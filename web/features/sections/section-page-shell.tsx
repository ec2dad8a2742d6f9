/**
 * The frame every section screen shares (spec §2): a main landmark, the section title as the page's one
 * h1 with its description, and the load-failure state (loading shows the shared InlineLoader).
 */
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { createContext, type ReactNode, useContext } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Section } from '../../../domain/sections/registry.ts';
import { useSectionEditing } from '../../app/credential-update.ts';
import type { SectionLock } from '../../app/provider-review.ts';
import { CopiedSectionConfirm } from '../../components/copied-section-confirm.tsx';
import { CredentialUpdateNotice } from '../../components/credential-update-notice.tsx';
import { SectionLockNotice } from '../../components/section-lock-notice.tsx';

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

export function SectionPageShell({ section, children }: { section: Section; children: ReactNode }) {
  const { applicationId = '' } = useParams();
  // Issue 29 item 4: a dated section of the approved application offers 'Update Credential' instead
  // of the read-only dead end; in update mode (`?update=1`) it is editable.
  const { lock, updateMode } = useSectionEditing(applicationId, section.key);
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
          {updateMode ? (
            <CredentialUpdateNotice
              applicationId={applicationId}
              sectionKey={section.key}
              mode={updateMode}
            />
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
