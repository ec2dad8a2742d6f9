/**
 * The 'Settings' tab of /admin (issue 50 item 7), for administrators: the organization's name and
 * postal address and who signs the decision letters (name and title). A letter keeps the settings it
 * was written with; a change applies to the letters written after it. Contract domain/api/settings.ts.
 */
import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  ADDRESS_MAX,
  type OrganizationSettings,
  organizationSettingsSchema,
  SETTING_TEXT_MAX,
} from '../../../domain/api/settings.ts';
import { ApiError, api } from '../../api.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';

const settingsKey = ['admin', 'settings'] as const;

/** The tab; reads only while shown. */
export function SettingsTab({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: settingsKey,
    enabled,
    queryFn: () => api<OrganizationSettings>('GET', '/api/admin/settings'),
  });
  const save = useMutation({
    mutationFn: (body: OrganizationSettings) => api<OrganizationSettings>('PUT', '/api/admin/settings', body),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  });
  const form = useForm<OrganizationSettings>({
    initialValues: { organizationName: '', address: '', signerName: '', signerTitle: '' },
    validate: zodValidate(organizationSettingsSchema),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: load the saved settings once they arrive
  useEffect(() => {
    if (query.data) {
      form.setValues(query.data);
      form.resetDirty(query.data);
    }
  }, [query.data]);

  if (query.isPending) return <InlineLoader label="Loading the settings..." />;
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title="The settings could not be loaded">
        {query.error.message}
      </Alert>
    );
  }
  return (
    <form
      aria-label="Organization settings"
      noValidate
      onSubmit={form.onSubmit((values) =>
        save.mutate(organizationSettingsSchema.parse(values), {
          onSuccess: () => notifySuccess('Settings saved', 'Letters written from now on carry them.'),
          onError: (error) => {
            if (error instanceof ApiError && error.issues.length > 0)
              form.setErrors(issuesToFormErrors(error.issues));
            notifyError('Settings Not Saved', error instanceof Error ? error.message : 'Try again.');
          },
        }),
      )}
    >
      <Stack maw={560}>
        <Text size="sm">
          The decision letters carry the organization's name and address and are signed by the person named
          here. A letter keeps what it was written with.
        </Text>
        <TextInput
          label="Organization name"
          maxLength={SETTING_TEXT_MAX}
          {...form.getInputProps('organizationName')}
        />
        <Textarea
          label="Address"
          description="As it should print on a letter, one line per line."
          autosize
          minRows={3}
          maxLength={ADDRESS_MAX}
          {...form.getInputProps('address')}
        />
        <TextInput label="Letter signer" maxLength={SETTING_TEXT_MAX} {...form.getInputProps('signerName')} />
        <TextInput
          label="Signer's title"
          maxLength={SETTING_TEXT_MAX}
          {...form.getInputProps('signerTitle')}
        />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            Save Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
