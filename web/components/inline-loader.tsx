import { Group, Loader, Text } from '@mantine/core';

/** In-page loading state: a spinner and the spec's 'Loading...' text, announced politely. */
export function InlineLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Group justify="center" py="xl" role="status" aria-live="polite">
      <Loader aria-hidden="true" />
      <Text>{label}</Text>
    </Group>
  );
}
