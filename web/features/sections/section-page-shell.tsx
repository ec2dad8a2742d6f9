/**
 * The frame every section screen shares (spec §2): a main landmark, the section title as the page's one
 * h1 with its description, and the loading and load-failure states.
 */
import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Section } from '../../../domain/sections/registry.ts';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Field error text at red.9: Mantine's default error red (red.6 on white, about 3.3:1) fails WCAG AA
 * contrast for the small error text under inputs.
 */
const errorColor = { '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties;

export function SectionPageShell({ section, children }: { section: Section; children: ReactNode }) {
  return (
    <main style={errorColor}>
      <Container size="md" py="xl">
        <Stack>
          <div>
            <Title order={1} size="h2">
              {section.title}
            </Title>
            <Text c="dimmed">{capitalize(section.description)}</Text>
          </div>
          {children}
        </Stack>
      </Container>
    </main>
  );
}

/** 'Loading...' while a section's data is read (spec §2: certifications show it first). */
export function SectionLoading() {
  return (
    <Group role="status" aria-live="polite" py="md">
      <Loader size="sm" aria-hidden="true" />
      <Text>Loading...</Text>
    </Group>
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

/** The form screens' footer (spec §2): 'Cancel' back to /dashboard and 'Save & Continue' ('Saving...' while busy). */
export function SaveCancelFooter({ saving }: { saving: boolean }) {
  const navigate = useNavigate();
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
