import { Group, Loader, Text } from '@mantine/core';

/**
 * In-page loading state: a spinner and the spec's 'Loading...' text, announced politely.
 * `size="sm"` is the compact form for a section screen or a card.
 */
export function InlineLoader({ label = 'Loading...', size = 'md' }: { label?: string; size?: 'sm' | 'md' }) {
  return (
    <Group justify="center" py={size === 'sm' ? 'md' : 'xl'} role="status" aria-live="polite">
      <Loader size={size} aria-hidden="true" />
      <Text>{label}</Text>
    </Group>
  );
}
