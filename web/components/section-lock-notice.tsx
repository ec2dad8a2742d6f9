/**
 * The notice at the top of a section or documents screen of a completed application (issue 13):
 * why it is read-only (the server's own lock message), or, for a section the credentialing team has
 * opened again, their request and what to do next. A white box with a coloured edge: the tinted
 * Alert's body text failed axe's contrast check.
 */
import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { SectionLock } from '../app/provider-review.ts';
import { badgeColor } from '../theme.ts';

function Notice({ title, edge, children }: { title: string; edge: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" role="status" style={{ borderLeft: `6px solid ${edge}` }}>
      <Text fw={600} mb={4}>
        {title}
      </Text>
      {children}
    </Paper>
  );
}

export function SectionLockNotice({ lock }: { lock: SectionLock }) {
  if (lock.kind === 'locked') {
    return (
      <Notice title="Read-only" edge="var(--mantine-color-blue-8)">
        <Text size="sm">{lock.message}</Text>
      </Notice>
    );
  }
  if (lock.kind === 'requested') {
    return (
      <Notice title="The credentialing team asked for changes here" edge={badgeColor.orange}>
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {lock.message}
        </Text>
        <Text size="sm" mt="xs">
          Save your changes, then press 'Submit Response' on your dashboard.
        </Text>
      </Notice>
    );
  }
  return null;
}
