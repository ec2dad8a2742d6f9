/**
 * The account page's 'Legal name' card for a provider who holds a credential (issue 49 item 1): the
 * name on the credential, a change waiting for the credentialing team, and 'Change Legal Name', a
 * dialog that takes the new first and last name and the document that shows the change (one the
 * provider uploaded in Documents in update mode). The server sends it as a credential update; the
 * account shows the new name once a reviewer accepts it. Providers without a running credential
 * change their name as before; staff never see the card.
 */
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { legalNameChangeBodySchema } from '../../../domain/api/credential-updates.ts';
import { legalNameChangeTexts } from '../../../domain/credentials/credential-updates.ts';
import { sectionCatalog, sectionPath } from '../../../domain/sections/section-catalog.ts';
import { ApiError } from '../../api.ts';
import { credentialUpdateHref } from '../../app/credential-update.ts';
import { formatDate } from '../../format.ts';
import { zodValidate } from '../../forms/zod-form.ts';
import { notifySuccess } from '../../notify.ts';
import { useAccountCredential, useLegalNameStatus, useSendLegalNameChange } from './legal-name-api.ts';

/** The card, or nothing when the provider holds no credential a name change must go through. */
export function LegalNameCard() {
  const credential = useAccountCredential(true);
  const held =
    credential.data &&
    ['pending', 'credentialed', 'expired'].includes(credential.data.state) &&
    credential.data.applicationId
      ? credential.data.applicationId
      : null;
  const status = useLegalNameStatus(held);
  const [open, setOpen] = useState(false);
  if (!held || !status.data) return null;
  const { current, waiting, allowed } = status.data;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="legal-name-title">
      <Stack>
        <Title order={2} size="h4" id="legal-name-title">
          Legal name
        </Title>
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{`${current.firstName} ${current.lastName}`.trim()}</Text>
          {allowed && (
            <Button variant="default" onClick={() => setOpen(true)}>
              {legalNameChangeTexts.button}
            </Button>
          )}
        </Group>
        {waiting && (
          <Text size="sm" role="status">
            {legalNameChangeTexts.waiting(`${waiting.firstName} ${waiting.lastName}`)}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {legalNameChangeTexts.explanation}
        </Text>
      </Stack>
      <LegalNameDialog
        opened={open}
        onClose={() => setOpen(false)}
        applicationId={held}
        documents={status.data.documents}
      />
    </Card>
  );
}

function LegalNameDialog({
  opened,
  onClose,
  applicationId,
  documents,
}: {
  opened: boolean;
  onClose: () => void;
  applicationId: string;
  documents: { id: string; documentName: string; uploadedAt: string }[];
}) {
  const send = useSendLegalNameChange(applicationId);
  const form = useForm({
    initialValues: { firstName: '', lastName: '', documentId: '' },
    validate: zodValidate(legalNameChangeBodySchema),
  });
  const close = () => {
    form.reset();
    send.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    send.mutate(legalNameChangeBodySchema.parse(values), {
      onSuccess: () => {
        notifySuccess(legalNameChangeTexts.title, legalNameChangeTexts.sent);
        close();
      },
    }),
  );
  const error = send.error instanceof ApiError ? send.error.message : send.error ? String(send.error) : null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={legalNameChangeTexts.title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label={legalNameChangeTexts.title}>
        <Stack>
          <Text size="sm">{legalNameChangeTexts.explanation}</Text>
          <TextInput
            label="First Name"
            required
            data-autofocus
            autoComplete="given-name"
            errorProps={{ role: 'alert' }}
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label="Last Name"
            required
            autoComplete="family-name"
            errorProps={{ role: 'alert' }}
            {...form.getInputProps('lastName')}
          />
          {documents.length > 0 ? (
            <Select
              label={legalNameChangeTexts.documentLabel}
              required
              data={documents.map((d) => ({
                value: d.id,
                label: `${d.documentName} (uploaded ${formatDate(d.uploadedAt)})`,
              }))}
              errorProps={{ role: 'alert' }}
              {...form.getInputProps('documentId')}
            />
          ) : (
            <Alert color="blue" title={legalNameChangeTexts.documentLabel}>
              <Stack gap="xs">
                <Text size="sm">{legalNameChangeTexts.noDocument}</Text>
                <Anchor
                  component={Link}
                  to={credentialUpdateHref(sectionPath(sectionCatalog.documents, applicationId))}
                  size="sm"
                >
                  {legalNameChangeTexts.uploadLink}
                </Anchor>
              </Stack>
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert" title="Failed to send the name change">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending} disabled={documents.length === 0}>
              {legalNameChangeTexts.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
