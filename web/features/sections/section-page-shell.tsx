/**
 * The frame every section screen shares (spec §2): a main landmark, the section title as the page's one
 * h1 with its description, and the load-failure state (loading shows the shared InlineLoader).
 */
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Section } from '../../../domain/sections/registry.ts';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function SectionPageShell({ section, children }: { section: Section; children: ReactNode }) {
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
          {children}
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
