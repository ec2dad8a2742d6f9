/**
 * The verification checklist of the review page (issue 13; FHIR R4 VerificationResult: target,
 * status, primary source, validator, date, note). Each item shows what is verified against which
 * primary source and its outcome; while the application is Under Review the reviewer records one with
 * 'Verify' (Source, Date, Note, 'Save'), 'Discrepancy' (a note) or 'Waive' (a reason). The form is
 * validated with the server's schema (domain/api/review.ts `verificationUpdateSchema`).
 * An item whose covered data changed after its verification (issue 29 item 3) shows 'Needs
 * re-verification' (orange), what it was verified against and what changed, and the same actions.
 * An item that needs evidence before 'Verify' (issue 31: the claims history's NPDB query result) says
 * so while it has none.
 */
import {
  Badge,
  Button,
  Card,
  Group,
  List,
  Progress,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { type VerificationUpdate, verificationUpdateSchema } from '../../../domain/api/review.ts';
import {
  changeText,
  evidenceRequiredMessage,
  isoDay,
  type RecordableVerificationStatus,
  verificationKindLabel,
  verificationStatusColor,
  verificationStatusLabel,
} from '../../../domain/review/verification-checklist.ts';
import { ApiError } from '../../api.ts';
import { formatDate } from '../../format.ts';
import { issuesToFormErrors, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { EvidenceFiles } from './evidence-files.tsx';
import { ItemDetails } from './item-details.tsx';
import { NppesCheckPanel } from './nppes-check.tsx';
import { useUpdateVerification, type VerificationItemDto } from './review-api.ts';

type Outcome = Exclude<RecordableVerificationStatus, 'pending'>;

const formTitle: Record<Outcome, string> = {
  verified: 'Record the verification',
  discrepancy: 'Record a discrepancy',
  waived: 'Waive this item',
};

function OutcomeForm({
  applicationId,
  item,
  outcome,
  onDone,
}: {
  applicationId: string;
  item: VerificationItemDto;
  outcome: Outcome;
  onDone: () => void;
}) {
  const update = useUpdateVerification(applicationId);
  const form = useForm({
    initialValues: {
      source: item.source ?? item.primarySource,
      // A re-verification (issue 29) is a new check: it defaults to today, not the old date.
      verifiedAt:
        item.status === 'needs_reverification' ? isoDay(new Date()) : (item.verifiedAt ?? isoDay(new Date())),
      note: item.note ?? '',
      waiverReason: item.waiverReason ?? '',
    },
    validate: zodValidate(verificationUpdateSchema, (v: Record<string, string>) => toUpdate(outcome, v)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await update.mutateAsync({ itemId: item.id, update: toUpdate(outcome, values) });
      notifySuccess(
        'Checklist Updated',
        `${verificationKindLabel[item.kind]}: ${verificationStatusLabel[outcome]}`,
      );
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0)
        form.setErrors(issuesToFormErrors(error.issues));
      notifyError(
        'Checklist Not Updated',
        error instanceof Error ? error.message : 'The change was not saved.',
      );
    }
  });
  const headingId = `outcome-${item.id}`;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="xs">
        <Text fw={600} id={headingId}>
          {formTitle[outcome]}
        </Text>
        {outcome === 'verified' && (
          <>
            {item.kind === 'exclusions' ? (
              // Issue 51 item 1: the product writes this source from the lists it screened.
              <TextInput
                label="Source"
                readOnly
                description="Written by the product: each list screened, with the day it was imported and its rows."
                {...form.getInputProps('source')}
              />
            ) : (
              <TextInput label="Source" required {...form.getInputProps('source')} />
            )}
            <TextInput label="Date" type="date" required {...form.getInputProps('verifiedAt')} />
          </>
        )}
        {outcome === 'waived' && (
          <Textarea label="Reason" required autosize minRows={2} {...form.getInputProps('waiverReason')} />
        )}
        <Textarea
          label="Note"
          required={outcome === 'discrepancy'}
          autosize
          minRows={2}
          {...form.getInputProps('note')}
        />
        <Group gap="xs">
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
          <Button variant="default" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function toUpdate(outcome: Outcome, v: Record<string, string>): VerificationUpdate {
  return {
    status: outcome,
    source: outcome === 'verified' ? v.source : undefined,
    verifiedAt: outcome === 'verified' && v.verifiedAt ? v.verifiedAt : undefined,
    note: v.note || undefined,
    waiverReason: outcome === 'waived' ? v.waiverReason : undefined,
  };
}

/**
 * Why an item needs re-verification (issue 29 item 3): what it was verified (or waived) against, and
 * each covered field that changed since, as 'Expiration date 2026-12-15 → 2028-12-15'
 * (domain `changeText`), in a list named for screen readers.
 */
function ReverificationChanges({ item, validator }: { item: VerificationItemDto; validator: string | null }) {
  const headingId = `changes-${item.id}`;
  const by = validator ? ` by ${validator}` : '';
  return (
    <Stack gap={2}>
      <Text size="sm">
        {item.waiverReason
          ? `Waived${by}: ${item.waiverReason}`
          : `Verified against ${item.source ?? item.primarySource} on ${formatDate(item.verifiedAt)}${by}`}
      </Text>
      {item.changes.length > 0 && (
        <>
          <Text size="sm" fw={600} id={headingId}>
            What changed since the verification
          </Text>
          <List size="sm" aria-labelledby={headingId} style={{ overflowWrap: 'anywhere' }}>
            {item.changes.map((change) => (
              <List.Item key={change.field}>{changeText(change)}</List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

function ChecklistItem({
  applicationId,
  item,
  editable,
  people,
}: {
  applicationId: string;
  item: VerificationItemDto;
  editable: boolean;
  people: Record<string, string>;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const label = verificationKindLabel[item.kind];
  const validator = item.validatorId ? (people[item.validatorId] ?? 'a removed account') : null;
  return (
    <Card withBorder padding="sm" component="li" aria-label={item.target}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            <Text fw={600}>{item.target}</Text>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
          </div>
          <Badge color={badgeColor[verificationStatusColor[item.status]]} autoContrast variant="filled">
            {verificationStatusLabel[item.status]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          Primary source: {item.primarySource}
        </Text>
        {evidenceRequiredMessage[item.kind] && item.evidence.length === 0 && item.status !== 'waived' && (
          // Issue 31 item 4: the server refuses 'Verify' until the file is attached; said before.
          <Text size="sm" c={badgeColor.orange}>
            {evidenceRequiredMessage[item.kind]}
          </Text>
        )}
        {item.warnings.map((warning) => (
          // Issue 15: format checks of the number as given (advisory; the provider could save it).
          <Text key={warning} size="sm" c={badgeColor.orange}>
            {warning}
          </Text>
        ))}
        <ItemDetails item={item} />
        {item.status === 'verified' && (
          <Text size="sm">
            Verified against {item.source} on {formatDate(item.verifiedAt)}
            {validator ? ` by ${validator}` : ''}
          </Text>
        )}
        {item.carriedForwardFrom && (
          // Issue 29 item 6: education verified in the previous cycle, whose primary source does not change.
          <Text size="sm" c="dimmed">
            Carried forward from the previous cycle (verified {formatDate(item.verifiedAt)}, {item.source})
          </Text>
        )}
        {item.status === 'waived' && (
          <Text size="sm">
            Waived{validator ? ` by ${validator}` : ''}: {item.waiverReason}
          </Text>
        )}
        {item.status === 'discrepancy' && validator && (
          <Text size="sm">Discrepancy recorded by {validator}</Text>
        )}
        {item.status === 'needs_reverification' && (
          <ReverificationChanges item={item} validator={validator} />
        )}
        {item.note && <Text size="sm">Note: {item.note}</Text>}
        {editable && item.kind === 'npi' && (
          <NppesCheckPanel applicationId={applicationId} itemId={item.id} />
        )}
        <EvidenceFiles
          applicationId={applicationId}
          itemId={item.id}
          itemName={item.target}
          evidence={item.evidence}
          editable={editable}
        />
        {editable &&
          (outcome ? (
            <OutcomeForm
              applicationId={applicationId}
              item={item}
              outcome={outcome}
              onDone={() => setOutcome(null)}
            />
          ) : (
            <Group gap="xs">
              <Button size="xs" onClick={() => setOutcome('verified')} aria-label={`Verify ${item.target}`}>
                Verify
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => setOutcome('discrepancy')}
                aria-label={`Record a discrepancy for ${item.target}`}
              >
                Discrepancy
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => setOutcome('waived')}
                aria-label={`Waive ${item.target}`}
              >
                Waive
              </Button>
            </Group>
          ))}
      </Stack>
    </Card>
  );
}

/** The checklist with its progress (verified + waived of all items). */
export function VerificationChecklistPanel({
  applicationId,
  items,
  editable: open,
  canRecord = true,
  people,
}: {
  applicationId: string;
  items: readonly VerificationItemDto[];
  /** Outcomes can be recorded only while the application is Under Review (server rule). */
  editable: boolean;
  /** The caller's roles record outcomes (`review:application:any`, issue 32); else they read only. */
  canRecord?: boolean;
  people: Record<string, string>;
}) {
  const editable = open && canRecord;
  // Issue 29: an item needing re-verification no longer counts as done.
  const done = items.filter((i) => i.status === 'verified' || i.status === 'waived').length;
  const toReverify = items.filter((i) => i.status === 'needs_reverification').length;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Verification checklist
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">The checklist is generated when the review starts ('Start Review').</Text>
      ) : (
        <>
          <Text size="sm" id="checklist-progress">
            {done} of {items.length} verified or waived
            {toReverify > 0 && `, ${toReverify} ${toReverify === 1 ? 'needs' : 'need'} re-verification`}
          </Text>
          <Progress.Root>
            <Progress.Section value={(done / items.length) * 100} aria-labelledby="checklist-progress" />
          </Progress.Root>
          {!open && (
            <Text size="sm" c="dimmed">
              Outcomes can be recorded while the application is Under Review.
            </Text>
          )}
          {open && !canRecord && (
            <Text size="sm" c="dimmed">
              Your roles read this checklist; a Credentialing Specialist or an Administrator records the
              outcomes.
            </Text>
          )}
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {items.map((item) => (
              <ChecklistItem
                key={item.id}
                applicationId={applicationId}
                item={item}
                editable={editable}
                people={people}
              />
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
