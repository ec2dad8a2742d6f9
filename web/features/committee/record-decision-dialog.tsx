/**
 * 'Record Decision' for a file on a meeting's agenda (issue 32 item 5): the decision ('Approve',
 * 'Approve with Conditions', 'Deny', 'Defer'); its text, labelled by what it is ('Conditions',
 * 'Reason', 'What is missing') and required unless Approve; 'Effective Date' for the two approvals
 * (default today); 'Members Present' (default every member not recused); the votes 'For', 'Against'
 * and 'Abstained'; and the required 'Discussion Summary' for the minutes. Before sending, the fields
 * are checked with the API contract's schema and the vote with the domain's `checkVote` (the rules
 * the server applies, without the verifiers, which only the server knows); its message and any
 * refusal of the server are shown in the dialog.
 */
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { type RecordDecisionBody, recordDecisionBodySchema } from '../../../domain/api/committee.ts';
import {
  type CommitteeDecision,
  checkVote,
  committeeDecisions,
  committeeDecisionTextLabel,
  decisionLabelFor,
} from '../../../domain/committee/committee-decisions.ts';
import { REVIEW_TEXT_MAX } from '../../../domain/review/review-workflow.ts';
import { ApiError } from '../../api.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import type { AgendaItem, Meeting } from './committee-api.ts';
import { todayIsoDay } from './committee-format.ts';

interface DecisionValues {
  decision: CommitteeDecision | '';
  text: string;
  effectiveDate: string;
  presentMemberIds: string[];
  votesFor: number | string;
  votesAgainst: number | string;
  votesAbstained: number | string;
  discussion: string;
}

/** The decisions that credential the provider, and so need an effective date. */
function isApproval(decision: CommitteeDecision | ''): boolean {
  return decision === 'approve' || decision === 'approve_with_conditions';
}

function count(value: number | string): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** The form's values as the API's body: the text and the date only where the decision takes them. */
function toBody(values: DecisionValues) {
  const textLabel = values.decision ? committeeDecisionTextLabel[values.decision] : null;
  return {
    decision: values.decision || undefined,
    text: textLabel ? values.text.trim() : '',
    votesFor: count(values.votesFor),
    votesAgainst: count(values.votesAgainst),
    votesAbstained: count(values.votesAbstained),
    presentMemberIds: values.presentMemberIds,
    discussion: values.discussion.trim(),
    effectiveDate: isApproval(values.decision) ? values.effectiveDate || undefined : undefined,
  };
}

function initialValues(meeting: Meeting, item: AgendaItem): DecisionValues {
  return {
    decision: '',
    text: '',
    effectiveDate: todayIsoDay(),
    presentMemberIds: meeting.members
      .map((m) => m.userId)
      .filter((id) => !item.recusedMemberIds.includes(id)),
    votesFor: 0,
    votesAgainst: 0,
    votesAbstained: 0,
    discussion: '',
  };
}

/**
 * The 'Record Decision' dialog (issue 32 item 5) for `item` of `meeting`, named `fileName`; `item`
 * null: closed. `onSubmit` resolving closes it; throwing keeps it open with the error shown.
 */
export function RecordDecisionDialog({
  meeting,
  item,
  fileName,
  onSubmit,
  onClose,
}: {
  meeting: Meeting;
  item: AgendaItem | null;
  fileName: string;
  onSubmit: (body: RecordDecisionBody) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<DecisionValues>({
    initialValues: {
      decision: '',
      text: '',
      effectiveDate: '',
      presentMemberIds: [],
      votesFor: 0,
      votesAgainst: 0,
      votesAbstained: 0,
      discussion: '',
    },
    validate: zodValidate(recordDecisionBodySchema, toBody),
  });
  const opened = item !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: start afresh for each file opened
  useEffect(() => {
    if (item) {
      form.setInitialValues(initialValues(meeting, item));
      form.setValues(initialValues(meeting, item));
      form.clearErrors();
      setProblem(null);
    }
  }, [item?.itemId]);

  const submit = form.onSubmit(async (values) => {
    if (!item) return;
    setProblem(null);
    const body = toBody(values) as RecordDecisionBody;
    const vote = checkVote({
      members: meeting.members.map((m) => m.userId),
      present: body.presentMemberIds,
      recused: item.recusedMemberIds,
      quorum: meeting.quorum,
      votesFor: body.votesFor,
      votesAgainst: body.votesAgainst,
      votesAbstained: body.votesAbstained,
      // Who verified the file is the server's to check.
      verifiers: [],
    });
    if (!vote.ok) {
      setProblem(vote.message);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(body);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      setProblem(error instanceof Error ? error.message : 'The decision was not recorded. Try again.');
    } finally {
      setBusy(false);
    }
  });

  const { decision } = form.values;
  const textLabel = decision ? committeeDecisionTextLabel[decision] : null;

  return (
    <Modal
      opened={opened}
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
          {item?.kind === 'monitoring' && (
            <Text size="sm">
              Ongoing monitoring suspended this provider's credential. Continue restores it (with conditions
              if given); Terminate ends it today; Defer waits for another meeting.
            </Text>
          )}
          {item?.kind === 'appeal' && (
            <Text size="sm">
              An appeal: Approve reverses the denial, Deny upholds it, Defer waits for another meeting. The
              decision is final.
            </Text>
          )}
          <Radio.Group label="Decision" required {...form.getInputProps('decision')}>
            <Stack gap={6} mt={6}>
              {committeeDecisions.map((d) => (
                <Radio key={d} value={d} label={decisionLabelFor(item?.kind, d)} />
              ))}
            </Stack>
          </Radio.Group>
          {textLabel && (
            <Textarea
              label={textLabel}
              description={decision === 'deny' ? 'The provider reads it in the decision letter.' : undefined}
              required
              autosize
              minRows={2}
              maxLength={REVIEW_TEXT_MAX}
              {...form.getInputProps('text')}
            />
          )}
          {decision === 'deny' && item?.denialEndsCredential && (
            // Issue 29 item 1: a recredentialing denial ends the credential on the decision day.
            <Alert color="red" variant="light" role="alert" title="The credential ends">
              {item.denialEndsCredential}
            </Alert>
          )}
          {isApproval(decision) && item?.kind !== 'monitoring' && (
            <TextInput label="Effective Date" type="date" required {...form.getInputProps('effectiveDate')} />
          )}
          <Checkbox.Group
            label="Members Present"
            description="A recused member does not vote and does not count toward the quorum."
            {...form.getInputProps('presentMemberIds')}
          >
            <Stack gap={6} mt={6}>
              {meeting.members.map((member) => (
                <Checkbox
                  key={member.userId}
                  value={member.userId}
                  label={`${member.name || member.email}${item?.recusedMemberIds.includes(member.userId) ? ' (recused)' : ''}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group grow align="flex-start">
            {(['votesFor', 'votesAgainst', 'votesAbstained'] as const).map((field) => (
              <NumberInput
                key={field}
                label={{ votesFor: 'For', votesAgainst: 'Against', votesAbstained: 'Abstained' }[field]}
                min={0}
                max={meeting.members.length}
                allowDecimal={false}
                allowNegative={false}
                required
                {...form.getInputProps(field)}
              />
            ))}
          </Group>
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
            <Button type="submit" loading={busy}>
              Record Decision
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
