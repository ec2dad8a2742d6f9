/**
 * A member's own vote on a file (issue 50 items 2 and 7): 'Vote to Approve', 'Vote to Approve with
 * Conditions', 'Vote to Deny' or 'Vote to Defer' ('Continue' / 'Terminate' for a monitoring finding),
 * signed 'I reviewed this file' with the member's authenticator code. The member may change it until
 * the decision is recorded; nobody else can cast it. The server's refusal is shown in the dialog.
 */
import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { type MemberVoteBody, memberVoteBodySchema } from '../../../domain/api/committee.ts';
import {
  type CommitteeDecision,
  committeeDecisions,
  memberVoteLabel,
  monitoringVoteLabel,
} from '../../../domain/committee/committee-decisions.ts';
import { ApiError } from '../../api.ts';
import { ReviewSignatureFields } from '../../components/review-signature-fields.tsx';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import type { AgendaItem } from './committee-api.ts';

interface VoteValues {
  vote: CommitteeDecision | '';
  reviewed: boolean;
  code: string;
}

/** The dialog for `item` (null: closed); `onSubmit` resolving closes it. */
export function VoteDialog({
  item,
  fileName,
  onSubmit,
  onClose,
}: {
  item: AgendaItem | null;
  fileName: string;
  onSubmit: (body: MemberVoteBody) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const toBody = (v: VoteValues) => ({
    vote: v.vote || undefined,
    reviewed: v.reviewed,
    code: v.code.trim(),
  });
  const form = useForm<VoteValues>({
    initialValues: { vote: '', reviewed: false, code: '' },
    validate: zodValidate(memberVoteBodySchema, toBody),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: start afresh for each file opened
  useEffect(() => {
    if (item) {
      form.setValues({ vote: item.callerVote ?? '', reviewed: false, code: '' });
      form.clearErrors();
      setProblem(null);
    }
  }, [item?.itemId]);
  const labels = item?.kind === 'monitoring' ? monitoringVoteLabel : memberVoteLabel;
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    try {
      await onSubmit(memberVoteBodySchema.parse(toBody(values)));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      setProblem(error instanceof Error ? error.message : 'Your vote was not recorded. Try again.');
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal
      opened={item !== null}
      onClose={() => !busy && onClose()}
      title="Your Vote"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Your Vote">
        <Stack>
          <Text size="sm" fw={600}>
            {fileName}
          </Text>
          <Radio.Group label="Your vote" required {...form.getInputProps('vote')}>
            <Stack gap={6} mt={6}>
              {committeeDecisions.map((d) => (
                <Radio key={d} value={d} label={labels[d]} />
              ))}
            </Stack>
          </Radio.Group>
          <ReviewSignatureFields form={form} />
          {problem && (
            <Alert color="red" variant="light" role="alert" title="Vote not recorded">
              {problem}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Cast Vote
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
