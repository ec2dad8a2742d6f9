/**
 * The add-form-plus-table layout (spec §2 "Payors, certifications, CME, peer references screens", §4,
 * §5, §7, §8): payors, certifications, CME, peer references.
 *
 * - The add form on top (required fields marked) validates with the section's zod schema, POSTs one row
 *   (empty optional fields as null), toasts the registry's message, clears itself, and the list reloads.
 * - The table of saved rows (newest first, as the server orders them; cards on phones, issue 17) appears
 *   only when rows exist; each row has a delete button naming the row, with a confirmation; the list reloads
 *   afterwards.
 * - 'Loading...' while the rows load. A load failure toasts where the registry has a `loadError`
 *   (certifications) and is only logged otherwise (payors, CME, peer references; spec §8).
 * - 'Back to Dashboard' returns to /dashboard.
 */
import { ActionIcon, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { type AddFormTableSectionKey, sectionByKey } from '../../../domain/sections/registry.ts';
import { ApiError, isNotFound } from '../../api.ts';
import { ApplicationNotFound } from '../../components/application-not-found.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable } from '../../components/responsive-table.tsx';
import { useUnsavedChangesGuard } from '../../forms/unsaved-changes.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { FormErrorSummary, fieldLabels } from './form-error-summary.tsx';
import type { ApiRow, FormValues } from './screen-types.ts';
import { SectionPageShell, useSectionReadOnly } from './section-page-shell.tsx';
import { addFormTableScreens } from './section-screens.ts';
import { useAddRow, useDeleteRow, useSectionRows } from './sections-api.ts';

function AddForm({
  applicationId,
  sectionKey,
}: {
  applicationId: string;
  sectionKey: AddFormTableSectionKey;
}) {
  const section = sectionByKey[sectionKey];
  const screen = addFormTableScreens[sectionKey];
  const labels = fieldLabels(section.fields);
  const add = useAddRow(applicationId, sectionKey);
  const form = useForm<FormValues>({
    initialValues: screen.empty,
    validate: zodValidate(section.schema),
  });
  // Issue 17: leaving with a half-filled add form asks first.
  const guard = useUnsavedChangesGuard(form.isDirty());
  const titleId = `add-${section.slug}-title`;

  const submit = form.onSubmit((values) => {
    add.mutate(section.schema.parse(values), {
      onSuccess: () => {
        notifySuccess('Success', section.messages.saveSuccess);
        form.reset();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.issues.length > 0) {
          form.setErrors(issuesToFormErrors(error.issues));
        }
        notifyError('Error', section.messages.saveError);
      },
    });
  });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate aria-labelledby={titleId}>
        <Stack>
          <div>
            <Title order={2} size="h3" id={titleId}>
              {screen.addLabel}
            </Title>
            <Text size="sm" c="dimmed">
              Fields marked with an asterisk (*) are required.
            </Text>
          </div>
          <FormErrorSummary errors={form.errors} describePath={(path) => labels.get(path) ?? path} />
          <screen.Fields
            input={(name, options) => form.getInputProps(name, options)}
            values={form.values}
            setValue={(name, value) => form.getInputProps(name).onChange(value)}
          />
          <div>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Saving...' : screen.addLabel}
            </Button>
          </div>
        </Stack>
      </form>
      {guard.dialog}
    </Card>
  );
}

function SavedRows({
  applicationId,
  sectionKey,
}: {
  applicationId: string;
  sectionKey: AddFormTableSectionKey;
}) {
  const section = sectionByKey[sectionKey];
  const screen = addFormTableScreens[sectionKey];
  const { messages } = section;
  const readOnly = useSectionReadOnly();
  const query = useSectionRows(applicationId, sectionKey);
  const remove = useDeleteRow(applicationId, sectionKey);
  const [confirming, setConfirming] = useState<ApiRow | null>(null);
  const titleId = `saved-${section.slug}-title`;

  useEffect(() => {
    if (!query.isError) return;
    if (messages.loadError) notifyError('Error', messages.loadError);
    // Spec §8 "Silent handling": payors, CME and peer references only log a load failure.
    else console.warn(`Could not load ${section.title}:`, query.error.message);
  }, [query.isError, query.error, messages.loadError, section.title]);

  const confirmDelete = () => {
    if (!confirming) return;
    remove.mutate(confirming.id, {
      onSuccess: () => notifySuccess('Success', messages.deleteSuccess ?? ''),
      onError: () => notifyError('Error', messages.deleteError ?? messages.saveError),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId} mb="md">
        {screen.listTitle}
      </Title>
      {query.isPending ? (
        <InlineLoader size="sm" />
      ) : query.isError ? (
        <Text>The saved entries could not be loaded. Reload the page to try again.</Text>
      ) : query.data.length === 0 ? (
        <Text c="dimmed">Nothing added yet.</Text>
      ) : (
        <ResponsiveTable
          rows={query.data}
          columns={screen.columns}
          rowKey={(row) => row.id}
          label={screen.listTitle}
          minWidth={720}
          striped
          actions={
            readOnly
              ? undefined
              : (row) => (
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    aria-label={`Delete ${screen.noun} ${screen.rowName(row)}`}
                    onClick={() => setConfirming(row)}
                  >
                    <IconTrash size={18} aria-hidden="true" />
                  </ActionIcon>
                )
          }
        />
      )}
      <ConfirmDialog
        opened={confirming !== null}
        title={`Delete ${screen.noun}`}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(null)}
      >
        Delete <strong>{confirming ? screen.rowName(confirming) : ''}</strong>? This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
}

/** The add form, left out while the section is read-only (issue 13): nothing can be added then. */
function AddFormUnlessReadOnly(props: { applicationId: string; sectionKey: AddFormTableSectionKey }) {
  return useSectionReadOnly() ? null : <AddForm {...props} />;
}

export default function AddFormTablePage({ sectionKey }: { sectionKey: AddFormTableSectionKey }) {
  const { applicationId = '' } = useParams();
  const navigate = useNavigate();
  // Issue 17: an unknown or another person's application id shows no add form (the rows query is shared
  // with SavedRows by its key).
  const rows = useSectionRows(applicationId, sectionKey);
  if (isNotFound(rows.error)) {
    return (
      <SectionPageShell section={sectionByKey[sectionKey]}>
        <ApplicationNotFound />
      </SectionPageShell>
    );
  }
  return (
    <SectionPageShell section={sectionByKey[sectionKey]}>
      <AddFormUnlessReadOnly applicationId={applicationId} sectionKey={sectionKey} />
      <SavedRows applicationId={applicationId} sectionKey={sectionKey} />
      <Group>
        <Button variant="default" onClick={() => navigate('/dashboard')}>
          Back to Dashboard
        </Button>
      </Group>
    </SectionPageShell>
  );
}
