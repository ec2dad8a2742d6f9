/**
 * A dialog asking for a required reason before an action: 'Reject' and 'Close Without Decision' on the
 * review page (issues 13, 29), and the screening actions (issue 30: applying a file that would empty or
 * shrink a list, 'Confirm Match', 'Not the Same Person', 'Accept Change'). The reason is validated with
 * the caller's zod schema (the API contract's) before anything is sent; a 400's field issues from the
 * server show under the field. Mantine's Modal traps focus, closes with Escape and returns focus to the
 * button that opened it. Each opening starts with an empty reason.
 */
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useEffect, useState } from 'react';
import type { $ZodType } from 'zod/v4/core';
import { ApiError } from '../api.ts';
import { issuesToFormErrors, zodValidate } from '../forms/zod-form.ts';

export function ReasonDialog({
  opened,
  title,
  children,
  submitLabel,
  destructive = false,
  maxLength,
  description,
  fieldLabel = 'Reason',
  schema,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  /** The dialog's title and accessible name (also the form's). */
  title: string;
  /** What the action does, above the reason. */
  children: ReactNode;
  submitLabel: string;
  /** A red submit button. */
  destructive?: boolean;
  /** The schema's longest reason, characters (the field stops there). */
  maxLength?: number;
  /** Under the field's label, e.g. who sees the reason. */
  description?: string;
  /** The field's label: 'Reason' unless the text is something else (a note, a statement). */
  fieldLabel?: string;
  /** Validates `{ reason }`; must refuse an empty reason. */
  schema: $ZodType;
  /**
   * Sends the action. Resolving closes the dialog; throwing keeps it open (an ApiError's field issues
   * are shown on the field; the caller reports anything else).
   */
  onSubmit: (reason: string) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { reason: '' }, validate: zodValidate(schema) });
  // A dialog opened again (another finding, another file) starts with an empty reason.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only
  useEffect(() => {
    if (opened) form.reset();
  }, [opened]);
  const submit = form.onSubmit(async ({ reason }) => {
    setBusy(true);
    try {
      await onSubmit(reason.trim());
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          {children}
          <Textarea
            label={fieldLabel}
            required
            autosize
            minRows={3}
            maxLength={maxLength}
            description={description}
            {...form.getInputProps('reason')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" color={destructive ? 'red.9' : undefined} loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
