/**
 * The attestation dialog that 'Application Completed' opens first (issue 14; NCQA CR 3): the
 * disclosure questions (issue 31 item 2), numbered and grouped under their group headings (each
 * group a fieldset with its legend, so screen readers announce it), each a Yes/No radio pair (a
 * "Yes" asks for an explanation), the statement, and the signature typed in 'Full name
 * (signature)', which must be the profile's full name. 'Sign and Complete' sends the attestation
 * with the completion; the server checks everything again with the same schema
 * (domain/attestation.ts) and stores it with the snapshot it signs. Loaded lazily: the dashboard's
 * first paint does not carry the dialog or zod. Below Mantine's `sm` breakpoint the dialog is full
 * screen (decision 019), so the list stays usable at 390 px.
 */
import { Button, Fieldset, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ATTESTATION_STATEMENT,
  type AttestationInput,
  attestationInputSchema,
  attestationLabels,
  attestationMessages,
  type DisclosureQuestionId,
  disclosureQuestions,
  disclosureSections,
  EXPLANATION_MAX,
  profileFullName,
  SIGNATURE_MAX,
  signatureMatchesProfile,
} from '../../../domain/attestation.ts';
import { ApiError } from '../../api.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';

interface AnswerValue {
  answer: '' | 'yes' | 'no';
  explanation: string;
}
interface AttestationValues {
  answers: Record<DisclosureQuestionId, AnswerValue>;
  signature: string;
}

export interface AttestationDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The profile's names: the signature must match them. Null when the provider has no profile. */
  signer: { firstName: string; lastName: string } | null;
  /** Sends the completion with the attestation; rejects with the server's ApiError. */
  onSign: (attestation: AttestationInput) => Promise<unknown>;
  /** True while the completion is being sent. */
  submitting: boolean;
}

const emptyValues: AttestationValues = {
  answers: Object.fromEntries(
    disclosureQuestions.map((q) => [q.id, { answer: '', explanation: '' }]),
  ) as Record<DisclosureQuestionId, AnswerValue>,
  signature: '',
};

/**
 * Scroll `node` (a field's element, or a radio group's wrapper) into the middle of the view and
 * focus its first input; nothing when the field is not rendered.
 */
function revealField(node: HTMLElement | null) {
  if (!node) return;
  const input = node.matches('input, textarea') ? node : node.querySelector<HTMLElement>('input, textarea');
  node.scrollIntoView({ block: 'center' });
  input?.focus({ preventScroll: true });
}

/** The groups and their numbered questions, computed once (the list is static). */
const sections = disclosureSections();

export default function AttestationDialog({
  opened,
  onClose,
  signer,
  onSign,
  submitting,
}: AttestationDialogProps) {
  const schemaErrors = zodValidate<AttestationValues>(attestationInputSchema);
  const form = useForm<AttestationValues>({
    initialValues: emptyValues,
    validate: (values) => {
      const errors = schemaErrors(values);
      if (!errors.signature && values.signature.trim()) {
        if (!signer) errors.signature = attestationMessages.noProfileName;
        else if (!signatureMatchesProfile(values.signature, signer)) {
          errors.signature = attestationMessages.signatureMismatch(profileFullName(signer));
        }
      }
      return errors;
    },
  });

  const submit = form.onSubmit(
    async (values) => {
      try {
        await onSign(attestationInputSchema.parse(values));
        form.reset();
      } catch (error) {
        // The server's refusal on the fields it names (the same messages); anything else is the toast's.
        if (error instanceof ApiError && error.issues?.length)
          form.setErrors(issuesToFormErrors(error.issues));
      }
    },
    (errors) => {
      // With twenty-odd questions the first refusal may be far above the button: show and focus it.
      const [first] = Object.keys(errors);
      if (first) revealField(form.getInputNode(first));
    },
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={attestationLabels.title}
      size="lg"
      closeOnClickOutside={!submitting}
      closeOnEscape={!submitting}
      closeButtonProps={{ 'aria-label': 'Close', disabled: submitting }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Answer each question before you sign. A "Yes" does not end your application: explain it, and the
            credentialing team will review it with you.
          </Text>
          {sections.map(({ group, questions }) => (
            <Fieldset
              key={group.id}
              legend={group.title}
              variant="filled"
              p="sm"
              styles={{ legend: { fontWeight: 600 } }}
            >
              <Stack gap="md">
                {questions.map(({ number, question }) => {
                  const path = `answers.${question.id}` as const;
                  const yes = form.values.answers[question.id].answer === 'yes';
                  return (
                    <Stack key={question.id} gap="xs">
                      <Radio.Group
                        label={`${number}. ${question.text}`}
                        withAsterisk
                        {...form.getInputProps(`${path}.answer`)}
                        data-testid={`disclosure-${question.id}`}
                      >
                        <Group mt="xs">
                          <Radio value="yes" label={attestationLabels.yes} />
                          <Radio value="no" label={attestationLabels.no} />
                        </Group>
                      </Radio.Group>
                      {yes && (
                        <Textarea
                          label={attestationLabels.explanation}
                          description="What happened, when, and how it was resolved."
                          withAsterisk
                          autosize
                          minRows={2}
                          maxLength={EXPLANATION_MAX}
                          {...form.getInputProps(`${path}.explanation`)}
                        />
                      )}
                    </Stack>
                  );
                })}
              </Stack>
            </Fieldset>
          ))}
          <Text size="sm" fw={500}>
            {ATTESTATION_STATEMENT}
          </Text>
          <TextInput
            label={attestationLabels.signature}
            description={
              signer ? `Type your full name as your profile has it: ${profileFullName(signer)}` : undefined
            }
            withAsterisk
            autoComplete="name"
            maxLength={SIGNATURE_MAX}
            {...form.getInputProps('signature')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={submitting}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              {attestationLabels.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
