/**
 * The review page's 'Credential Update' banner (issue 29 item 4): while an approved provider's
 * credential update is open (GET /api/admin/applications/:applicationId/credential-update), it says
 * when it was sent and which sections changed; the checklist is editable meanwhile, and 'Complete
 * Update Review' (with a confirmation) closes the update once no item is pending, in discrepancy or
 * needing re-verification (POST .../credential-update/complete; the server refuses otherwise, naming
 * the items, and its message is shown).
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminCredentialUpdate } from '../../../domain/api/credential-updates.ts';
import { credentialUpdateTexts } from '../../../domain/credentials/credential-updates.ts';
import { sectionCatalog } from '../../../domain/sections/section-catalog.ts';
import { api } from '../../api.ts';
import { formatDate } from '../../format.ts';
import type { AdminReview } from './review-api.ts';

const path = (applicationId: string) =>
  `/api/admin/applications/${encodeURIComponent(applicationId)}/credential-update`;

/** The open credential update of `applicationId` (null when none), reloaded with the review. */
export function useOpenCredentialUpdate(applicationId: string) {
  return useQuery({
    queryKey: ['admin', 'review', applicationId, 'credential-update'],
    queryFn: () => api<AdminCredentialUpdate>('GET', path(applicationId)),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

const openStatuses = new Set(['pending', 'discrepancy', 'needs_reverification']);

export function CredentialUpdateBanner({
  applicationId,
  update,
  checklist,
  canComplete = true,
}: {
  applicationId: string;
  update: NonNullable<AdminCredentialUpdate['open']>;
  checklist: AdminReview['checklist'];
  /** The caller's roles may complete it (`review:application:any`, issue 32); else it only informs. */
  canComplete?: boolean;
}) {
  const [opened, setOpened] = useState(false);
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: () => api('POST', `${path(applicationId)}/complete`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
  const left = checklist.filter((item) => openStatuses.has(item.status)).length;
  const sections = update.sections
    .map((key) => sectionCatalog[key as keyof typeof sectionCatalog]?.title ?? key)
    .join(', ');
  return (
    <Alert
      color="violet"
      variant="outline"
      title={credentialUpdateTexts.bannerTitle}
      role="region"
      aria-label={credentialUpdateTexts.bannerTitle}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          Sent {formatDate(update.openedAt)}
          {update.updatedAt !== update.openedAt ? `, last changed ${formatDate(update.updatedAt)}` : ''}{' '}
          (version {update.version}). Sections changed: {sections}.
        </Text>
        <Text size="sm">
          {left === 0
            ? 'Every checklist item is verified or waived: complete the update review.'
            : `Verify the changed items below (${left} left), then complete the update review.`}
        </Text>
        {canComplete && (
          <Button size="sm" onClick={() => setOpened(true)}>
            {credentialUpdateTexts.completeReview}
          </Button>
        )}
        {complete.isError && (
          <Text size="sm" c="red.9" role="alert">
            {complete.error.message}
          </Text>
        )}
      </Stack>
      <Modal
        opened={opened}
        onClose={() => !complete.isPending && setOpened(false)}
        title={credentialUpdateTexts.completeReview}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Text>{credentialUpdateTexts.completeConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)} disabled={complete.isPending}>
              Cancel
            </Button>
            <Button
              loading={complete.isPending}
              onClick={() => complete.mutate(undefined, { onSettled: () => setOpened(false) })}
            >
              {credentialUpdateTexts.completeReview}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
