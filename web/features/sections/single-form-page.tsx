/**
 * The single-form layout: `/personal-information/:applicationId` (spec §2 "Personal information screen",
 * §7 upsert, §8 toasts). Loads the saved record (none yet is not an error), shows the section's fields,
 * validates with the section's zod schema (the server's), saves with one PUT, toasts the registry's
 * message (with 'Saved with 1 warning: …' when the NPI or DEA number has a warning, issue 28) and
 * returns to /dashboard. 'Cancel' returns without saving, asking first when the form has
 * changes (issue 17). An unknown or another person's application id shows 'Application not found'.
 */
import { Card, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { identifierWarnings, savedWithWarningsText } from '../../../domain/sections/identifier-checks.ts';
import { personalInformationSection } from '../../../domain/sections/personal-information.ts';
import { ApiError, isNotFound } from '../../api.ts';
import { useSession } from '../../app/session.ts';
import { ApplicationNotFound } from '../../components/application-not-found.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { useUnsavedChangesGuard } from '../../forms/unsaved-changes.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import {
  type PersonalInformationValues,
  personalInformationScreen,
} from './fields/personal-information-fields.tsx';
import { FormErrorSummary, fieldLabels } from './form-error-summary.tsx';
import {
  SaveCancelFooter,
  SectionFieldset,
  SectionLoadFailed,
  SectionPageShell,
} from './section-page-shell.tsx';
import {
  type PersonalInformationDto,
  usePersonalInformation,
  useSavePersonalInformation,
} from './sections-api.ts';

const section = personalInformationSection;
const screen = personalInformationScreen;
const { messages } = section;
const labels = fieldLabels([
  ...section.fields,
  { name: 'providerTypeChoice', label: 'Provider Type' },
  { name: 'customProviderType', label: 'Custom Provider Type' },
]);
/** How long a confirmation with warnings stays (ms): it has a sentence or more to read per warning. */
const WARNINGS_TOAST_MS = 12_000;
const schemaErrors = zodValidate<PersonalInformationValues>(section.schema, screen.toInput);

function PersonalInformationForm({
  applicationId,
  saved,
}: {
  applicationId: string;
  saved: PersonalInformationDto | null;
}) {
  const navigate = useNavigate();
  const save = useSavePersonalInformation(applicationId);
  const form = useForm<PersonalInformationValues>({
    initialValues: screen.toFormValues(saved),
    validate: (values) => screen.toFormErrors(schemaErrors(values) as Record<string, string>, values),
  });
  const guard = useUnsavedChangesGuard(form.isDirty());

  const lastName = useSession().data?.profile?.lastName;

  const submit = form.onSubmit((values) => {
    save.mutate(section.schema.parse(screen.toInput(values)), {
      onSuccess: () => {
        // Issue 28: the NPI and DEA warnings travel with the confirmation, past the screen they were on.
        const warnings = savedWithWarningsText(identifierWarnings(values, lastName));
        if (warnings) {
          notifySuccess(
            'Success',
            <>
              {messages.saveSuccess}
              <br />
              {warnings}
            </>,
            { autoClose: WARNINGS_TOAST_MS },
          );
        } else {
          notifySuccess('Success', messages.saveSuccess);
        }
        guard.allowNavigation();
        navigate('/dashboard');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.issues.length > 0) {
          form.setErrors(screen.toFormErrors(issuesToFormErrors(error.issues), values));
        }
        notifyError('Error', messages.saveError);
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label={section.title}>
      <Stack>
        <FormErrorSummary errors={form.errors} describePath={(path) => labels.get(path) ?? path} />
        <Card withBorder padding="lg">
          <SectionFieldset>
            <screen.Fields
              input={(name, options) => form.getInputProps(name, options)}
              values={form.values}
              setValue={(name, value) => form.getInputProps(name).onChange(value)}
            />
          </SectionFieldset>
        </Card>
        <SaveCancelFooter saving={save.isPending} />
      </Stack>
      {guard.dialog}
    </form>
  );
}

export default function SingleFormPage() {
  const { applicationId = '' } = useParams();
  const query = usePersonalInformation(applicationId);
  useEffect(() => {
    if (query.isError && !isNotFound(query.error)) {
      notifyError('Error', messages.loadError ?? messages.saveError);
    }
  }, [query.isError, query.error]);

  return (
    <SectionPageShell section={section}>
      {query.isPending ? (
        <InlineLoader size="sm" />
      ) : isNotFound(query.error) ? (
        <ApplicationNotFound />
      ) : query.isError ? (
        <SectionLoadFailed />
      ) : (
        <PersonalInformationForm applicationId={applicationId} saved={query.data} />
      )}
    </SectionPageShell>
  );
}
