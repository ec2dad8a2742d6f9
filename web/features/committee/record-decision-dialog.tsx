/**
 * 'Record Decision' for a file on a meeting's agenda (issue 32 item 5; issue 50 item 2): the decision
 * is the tally of the members' own votes (shown: the decision carried and each count, or why there is
 * none yet, from the server's `tally`); the recorder writes the minutes: the text the carried decision
 * needs ('Conditions', 'Reason', 'What is missing'), 'Effective Date' for an approval (default today),
 * and the required 'Discussion Summary'. The server counts the votes again when it records; its
 * refusal is shown in the dialog.
 */
import { Alert, Button, Group, List, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { type RecordDecisionBody, recordDecisionBodySchema } from '../../../domain/api/committee.ts';
import {
  committeeDecisions,
  committeeDecisionTextLabel,
  decisionLabelFor,
} from '../../../domain/committee/committee-decisions.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/review/review-workflow.ts';
import { ApiError } from '../../api.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import type { AgendaItem } from './committee-api.ts';
import { todayIsoDay } from './committee-format.ts';

interface DecisionValues {
  text: string;
  effectiveDate: string;
  discussion: string;
}

/**
 * The 'Record Decision' dialog (issue 32 item 5) for `item`, named `fileName`; `item` null: closed.
 * `onSubmit` resolving closes it; throwing keeps it open with the error shown.
 */
export function RecordDecisionDialog({
  item,
  fileName,
  onSubmit,
  onClose,
}: {
  item: AgendaItem | null;
  fileName: string;
  onSubmit: (body: RecordDecisionBody) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const carried = item?.tally?.decision ?? null;
  const textLabel = carried ? committeeDecisionTextLabel[carried] : null;
  const approving = carried === 'approve' || carried === 'approve_with_conditions';
  const toBody = (values: DecisionValues): RecordDecisionBody => ({
    text: textLabel ? values.text.trim() : '',
    discussion: values.discussion.trim(),
    effectiveDate: approving && item?.kind !== 'monitoring' ? values.effectiveDate || undefined : undefined,
  });
  const form = useForm<DecisionValues>({
    initialValues: { text: '', effectiveDate: todayIsoDay(), discussion: '' },
    validate: zodValidate(recordDecisionBodySchema, toBody),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: start afresh for each file opened
  useEffect(() => {
    if (item) {
      form.reset();
      setProblem(null);
    }
  }, [item?.itemId]);

  const submit = form.onSubmit(async (values) => {
    if (!item) return;
    setProblem(null);
    if (textLabel && values.text.trim() === '') {
      form.setFieldError('text', `Enter the ${textLabel.toLowerCase()}`);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(toBody(values));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      setProblem(error instanceof Error ? error.message : 'The decision was not recorded. Try again.');
    } finally {
      setBusy(false);
    }
  });

  return (
    <Modal
      opened={item !== null}
      onClose={() => !busy && onClose()}
      title="Record Decision"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label="Record Decision">
        <Stack>
          <Text size="sm" fw={600}>
            {fileName}
          </Text>
          {item?.tally && (
            <Stack gap={4} aria-label="The members' votes">
              <Text size="sm">
                {carried
                  ? `The members' votes carry: ${decisionLabelFor(item.kind, carried)}.`
                  : item.tally.message}
              </Text>
              <List size="sm">
                {committeeDecisions.map((d) => (
                  <List.Item key={d}>
                    {decisionLabelFor(item.kind, d)}: {item.tally?.counts[d] ?? 0}
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
          {item?.denialEndsCredential && carried === 'deny' && (
            // Issue 29 item 1: a recredentialing denial ends the credential on the decision day.
            <Alert color="red" variant="light" role="alert" title="The credential ends">
              {item.denialEndsCredential}
            </Alert>
          )}
          {textLabel && (
            <Textarea
              label={textLabel}
              description={carried === 'deny' ? 'The provider reads it in the decision letter.' : undefined}
              required
              autosize
              minRows={2}
              maxLength={REVIEW_TEXT_MAX}
              {...form.getInputProps('text')}
            />
          )}
          {approving && item?.kind !== 'monitoring' && (
            <TextInput label="Effective Date" type="date" required {...form.getInputProps('effectiveDate')} />
          )}
          <Textarea
            label="Discussion Summary"
            description="For the minutes: what the committee weighed and why it decided so."
            required
            autosize
            minRows={3}
            maxLength={REVIEW_TEXT_MAX}
            {...form.getInputProps('discussion')}
          />
          {problem && (
            <Alert color="red" variant="light" role="alert" title="Not recorded">
              {problem}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!carried}>
              Record Decision
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
