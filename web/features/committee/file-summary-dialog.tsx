/**
 * 'Summary' of a file on a meeting's agenda (issue 32 item 5: "each file's summary one click away"):
 * the provider and cycle, NCQA's clock, why the file is not clean (and the medical director's note),
 * the verification checklist as the committee reads it, and the disclosure questions answered Yes
 * with the provider's explanations. Read from the server when opened; a member recused for the file
 * is refused (403) and never offered the button.
 */
import { Alert, Badge, List, Modal, Stack, Text, Title } from '@mantine/core';
import { formatIsoDay } from '../../../domain/calendar.ts';
import { applicationCycleLabel } from '../../../domain/credentials/provider-credential.ts';
import {
  type VerificationStatus,
  verificationStatusColor,
  verificationStatusLabel,
} from '../../../domain/review/verification-checklist.ts';
import { AppealAttachmentList } from '../../components/appeal-attachment-list.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import { type FileSummary, useFileSummary } from './committee-api.ts';
import { DecisionDue } from './decision-due.tsx';

type ChecklistRow = FileSummary['checklist'][number];

const checklistColumns: TableColumn<ChecklistRow>[] = [
  { header: 'Item', render: (row) => row.target },
  {
    header: 'Status',
    render: (row) => {
      const status = row.status as VerificationStatus;
      const label = verificationStatusLabel[status];
      return label ? (
        <Badge color={badgeColor[verificationStatusColor[status]]} variant="filled">
          {label}
        </Badge>
      ) : (
        row.status
      );
    },
  },
  { header: 'Source', render: (row) => row.source ?? '' },
  { header: 'Verified', noWrap: true, render: (row) => (row.verifiedAt ? formatIsoDay(row.verifiedAt) : '') },
  { header: 'Note', render: (row) => row.note ?? '' },
];

function Summary({ summary }: { summary: FileSummary }) {
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Text fw={600}>{summary.providerName || 'Provider without a profile'}</Text>
        <Text size="sm">
          {applicationCycleLabel[summary.cycle]}
          {summary.submittedAt ? `, completed ${formatDate(summary.submittedAt)}` : ''}
        </Text>
        <DecisionDue due={summary.decisionDue} />
      </Stack>
      <Stack gap={4}>
        <Title order={3} size="h5">
          Why the file is not clean
        </Title>
        {summary.reasons.length === 0 ? (
          <Text size="sm">It meets every clean-file criterion.</Text>
        ) : (
          <List size="sm" spacing={2}>
            {summary.reasons.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
        )}
        {summary.note && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            Note: {summary.note}
          </Text>
        )}
      </Stack>
      {summary.appeal && (
        // Issue 32 item 6: the provider's appeal of the denial; the committee's decision on it is final.
        <Stack gap={4}>
          <Title order={3} size="h5">
            Appeal
          </Title>
          {summary.appeal.deniedFor && <Text size="sm">Denied for: {summary.appeal.deniedFor}</Text>}
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            The provider's statement: {summary.appeal.statement}
          </Text>
          <AppealAttachmentList attachments={summary.appeal.attachments} />
          <Text size="sm">The committee's decision on an appeal is final.</Text>
        </Stack>
      )}
      <Stack gap={4}>
        <Title order={3} size="h5">
          Verification checklist
        </Title>
        {summary.checklist.length === 0 ? (
          <Text size="sm" c="dimmed">
            No checklist items.
          </Text>
        ) : (
          <ResponsiveTable
            label="Verification checklist"
            columns={checklistColumns}
            rows={summary.checklist}
            rowKey={(row) => `${row.target}|${row.source ?? ''}|${row.verifiedAt ?? ''}`}
          />
        )}
      </Stack>
      <Stack gap={4}>
        <Title order={3} size="h5">
          Disclosures
        </Title>
        {summary.disclosures.length === 0 ? (
          <Text size="sm">No disclosure question was answered Yes.</Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {summary.disclosures.map((d) => (
              <li key={d.question}>
                <Text size="sm" fw={600}>
                  Yes to: {d.question}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                  {d.explanation || 'No explanation given.'}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}

/**
 * The summary of the file `applicationId` of meeting `meetingId` in a dialog (issue 32 item 5);
 * `applicationId` null: closed.
 */
export function FileSummaryDialog({
  meetingId,
  applicationId,
  onClose,
}: {
  meetingId: string;
  applicationId: string | null;
  onClose: () => void;
}) {
  const summary = useFileSummary(meetingId, applicationId);
  return (
    <Modal
      opened={applicationId !== null}
      onClose={onClose}
      title="File Summary"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      size="xl"
    >
      {summary.isPending ? (
        <InlineLoader label="Loading the file's summary..." size="sm" />
      ) : summary.isError ? (
        <Alert color="red" variant="light" role="alert" title="The summary could not be loaded">
          {summary.error.message}
        </Alert>
      ) : (
        <Summary summary={summary.data} />
      )}
    </Modal>
  );
}
