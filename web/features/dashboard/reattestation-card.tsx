/**
 * 'Re-attestation required' on the dashboard (issue 14): shown while the credentialing team reviews
 * the application and its latest attestation is older than ATTESTATION_VALID_DAYS (the server says
 * so: `ProviderReview.reattestationRequired`). 'Attest Again' opens the completion's attestation
 * dialog; signing stores a re-attestation (POST /api/applications/:applicationId/attestation).
 */
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AttestationInput } from '../../../domain/attestation.ts';
import { api } from '../../api.ts';
import { providerReviewKey } from '../../app/provider-review.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { LazyAttestationDialog } from './lazy-attestation-dialog.tsx';

export function ReattestationCard({
  applicationId,
  signer,
}: {
  applicationId: string;
  signer: { firstName: string; lastName: string } | null;
}) {
  const queryClient = useQueryClient();
  const [signing, setSigning] = useState(false);
  const attest = useMutation({
    mutationFn: (attestation: AttestationInput) =>
      api('POST', `/api/applications/${applicationId}/attestation`, attestation),
    onSettled: () => queryClient.invalidateQueries({ queryKey: providerReviewKey(applicationId) }),
  });
  const sign = (attestation: AttestationInput) =>
    attest.mutateAsync(attestation).then(
      () => {
        setSigning(false);
        notifySuccess('Attestation Signed', 'The credentialing team has your new attestation.');
      },
      (error: Error) => {
        notifyError('Attestation Not Signed', error.message);
        throw error;
      },
    );
  return (
    // A white card with an orange edge, as 'Action required' (AA contrast on white).
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="reattestation-title"
      style={{ borderLeft: `4px solid ${badgeColor.orange}` }}
    >
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="reattestation-title">
          Re-attestation required
        </Title>
        <Text size="sm">
          Your attestation is older than the credentialing team can accept while they review your application.
          Answer the questions and sign again; nothing else in your application changes.
        </Text>
        <Button onClick={() => setSigning(true)} loading={attest.isPending}>
          Attest Again
        </Button>
      </Stack>
      <LazyAttestationDialog
        opened={signing}
        onClose={() => setSigning(false)}
        signer={signer}
        onSign={sign}
        submitting={attest.isPending}
      />
    </Card>
  );
}
