/**
 * The PDFs of an appeal (issue 50 item 8), each with its size and a download link (an audited route),
 * for the provider, the reviewer and the committee alike.
 */
import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { AppealAttachmentDto } from '../../domain/api/review.ts';
import { formatFileSizeMb } from '../../domain/sections/documents.ts';

/** The appeal's files, each with 'Download'; nothing when there are none. */
export function AppealAttachmentList({
  attachments,
  onRemove,
}: {
  attachments: readonly AppealAttachmentDto[];
  /** While the appeal is written: each file gets 'Remove'. */
  onRemove?: (attachment: AppealAttachmentDto) => void;
}) {
  if (attachments.length === 0) return null;
  return (
    <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Appeal attachments">
      {attachments.map((a) => (
        <Group key={a.id} component="li" gap="xs" wrap="wrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {a.fileName}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {formatFileSizeMb(a.fileSize)}
          </Text>
          <Button
            component="a"
            href={a.downloadUrl}
            download={a.fileName}
            size="compact-xs"
            variant="subtle"
            aria-label={`Download ${a.fileName}`}
          >
            Download
          </Button>
          {onRemove && (
            <ActionIcon
              variant="subtle"
              color="red.9"
              size="sm"
              aria-label={`Remove ${a.fileName}`}
              onClick={() => onRemove(a)}
            >
              <IconTrash size={14} aria-hidden="true" />
            </ActionIcon>
          )}
        </Group>
      ))}
    </Stack>
  );
}
