/**
 * The notice at the top of a section or documents screen of a completed application (issue 13):
 * why it is read-only (the server's own lock message), or, for a section the credentialing team has
 * opened again, their request and what to do next.
 */
import { Alert, Text } from '@mantine/core';
import type { SectionLock } from '../app/provider-review.ts';

export function SectionLockNotice({ lock }: { lock: SectionLock }) {
  if (lock.kind === 'locked') {
    return (
      <Alert color="blue.9" variant="light" title="Read-only" role="status">
        {lock.message}
      </Alert>
    );
  }
  if (lock.kind === 'requested') {
    return (
      <Alert
        color="orange"
        variant="light"
        title="The credentialing team asked for changes here"
        role="status"
      >
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {lock.message}
        </Text>
        <Text size="sm" mt="xs">
          Save your changes, then press 'Submit Response' on your dashboard.
        </Text>
      </Alert>
    );
  }
  return null;
}
