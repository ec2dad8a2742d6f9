/**
 * A decider's signature (issue 50 item 7): the box 'I reviewed this file' and the current code of
 * their authenticator app, as the medical director's 'Approve' and each committee member's vote ask
 * for them. The values are checked with the API's `reviewSignatureSchema` by the form that holds them.
 */
import { Checkbox, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { REVIEW_SIGNATURE_LABEL } from '../../domain/api/committee.ts';

/** The form values the signature takes. */
export interface SignatureValues {
  reviewed: boolean;
  code: string;
}

/** The two fields, bound to `form` (its `reviewed` and `code` values). */
export function ReviewSignatureFields<T extends SignatureValues>({ form }: { form: UseFormReturnType<T> }) {
  return (
    <Stack gap="xs">
      <Checkbox
        label={REVIEW_SIGNATURE_LABEL}
        description="Your signature: the decision is recorded with your name and the time."
        {...form.getInputProps('reviewed', { type: 'checkbox' })}
      />
      <TextInput
        label="Authentication code"
        description="The 6-digit code your authenticator app shows now."
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        errorProps={{ role: 'alert' }}
        {...form.getInputProps('code')}
      />
    </Stack>
  );
}
