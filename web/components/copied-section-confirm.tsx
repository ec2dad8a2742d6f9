/**
 * 'Review and Confirm' on a section screen (issue 29 item 6): in a draft pre-filled from the
 * provider's previous application, a copied section counts towards progress only once confirmed.
 * The screen says so above the form and offers the button; saving the section confirms it as well
 * (the server records it in the save). POST /api/applications/:applicationId/sections/:slug/confirm
 * (domain/api/section-confirmations.ts).
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationDto } from '../../domain/api/applications.ts';
import type { SectionConfirmation } from '../../domain/api/section-confirmations.ts';
import { type CatalogSectionKey, sectionCatalog } from '../../domain/sections/section-catalog.ts';
import {
  copiedSectionNotice,
  REVIEW_AND_CONFIRM,
  sectionConfirmedMessage,
  sectionConfirmedTitle,
} from '../../domain/sections/section-confirmation.ts';
import { ApiError, api } from '../api.ts';
import { useHasUnsavedChanges } from '../forms/dirty-forms.ts';
import { notifyError, notifySuccess } from '../notify.ts';

/**
 * The application's summary under the `['applications', ...]` prefix, so every section save (which
 * invalidates `['applications']`) refreshes what is confirmed.
 */
const applicationSummaryKey = (applicationId: string) => ['applications', applicationId, 'summary'] as const;

function useApplicationSummary(applicationId: string) {
  return useQuery({
    queryKey: applicationSummaryKey(applicationId),
    enabled: applicationId !== '',
    queryFn: () => api<ApplicationDto>('GET', `/api/applications/${encodeURIComponent(applicationId)}`),
    retry: false,
  });
}

function useConfirmSection(applicationId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<SectionConfirmation>(
        'POST',
        `/api/applications/${encodeURIComponent(applicationId)}/sections/${slug}/confirm`,
        {},
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}

/**
 * The notice and 'Review and Confirm' of a copied section not confirmed yet; nothing otherwise (not a
 * copy, confirmed, empty, past draft, or the summary not loaded).
 */
export function CopiedSectionConfirm({
  applicationId,
  sectionKey,
}: {
  applicationId: string;
  sectionKey: CatalogSectionKey;
}) {
  const section = sectionCatalog[sectionKey];
  const summary = useApplicationSummary(applicationId);
  const confirm = useConfirmSection(applicationId, section.slug);
  const unsaved = useHasUnsavedChanges();
  const application = summary.data;
  if (application?.applicationStatus !== 'draft' || !application.unconfirmedSections.includes(sectionKey)) {
    return null;
  }
  const onConfirm = async () => {
    try {
      await confirm.mutateAsync();
      notifySuccess(sectionConfirmedTitle, sectionConfirmedMessage(section.title));
    } catch (error) {
      notifyError('Error', error instanceof ApiError ? error.message : 'Failed to confirm this section');
    }
  };
  return (
    <Alert color="blue" variant="light" title="Copied from your previous application">
      <Stack gap="xs">
        <Text size="sm">{copiedSectionNotice}</Text>
        {unsaved && (
          <Text size="sm" fw={500}>
            You have unsaved changes: save the section to keep them (saving confirms it).
          </Text>
        )}
        <Group>
          <Button onClick={onConfirm} loading={confirm.isPending} disabled={unsaved}>
            {REVIEW_AND_CONFIRM}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
