/**
 * The details dialog of spec §2 /admin: profile, personal information (SSN masked by the server,
 * address line 2 included), every other section, and documents with download. Sections render
 * generically from the registry's `fields` labels (the logic is the same for all); value labels
 * (enum -> text) are listed explicitly per section field. A selector opens previous applications.
 */
import {
  Anchor,
  Badge,
  Box,
  Card,
  Group,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { applicationStatusLabel, pickCurrentApplication } from '../../../domain/application-status.ts';
import { formatFileSizeMb } from '../../../domain/sections/documents.ts';
import {
  credentialingStatusColor,
  type SectionKey,
  sectionByKey,
} from '../../../domain/sections/registry.ts';
import { optionValueText } from '../../../domain/sections/value-labels.ts';
import { isTwoFactorRequired } from '../../api.ts';
import { reviewPath } from '../../app/paths.ts';
import { CredentialAndCycle } from '../../components/credential-badge.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDate } from '../../format.ts';
import { notifyError } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import { type ProviderDetails, type SectionValue, useProviderDetails } from './admin-api.ts';
import { DocumentDownloadButton } from './document-download-button.tsx';

/** Display labels of stored option values, per `section.field`. */
/**
 * The value shown for `field` of `row`: a specialty's linked certification by the name the server
 * gives it (`boardCertification`, issue 31), never its row id.
 */
function shownValue(sectionKey: SectionKey, field: string, row: Record<string, SectionValue>): SectionValue {
  if (sectionKey === 'specialties' && field === 'boardCertificationId') return row.boardCertification ?? null;
  return row[field] ?? null;
}

const EMPTY = '—';

function formatValue(sectionKey: SectionKey, field: string, value: SectionValue): string {
  if (value === null || value === '') return EMPTY;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (sectionKey === 'documents' && field === 'fileSize') return formatFileSizeMb(Number(value));
  return optionValueText(sectionKey, field, value);
}

function FieldValue({
  sectionKey,
  field,
  value,
}: {
  sectionKey: SectionKey;
  field: string;
  value: SectionValue;
}) {
  if (sectionKey === 'payors' && field === 'credentialingStatus' && typeof value === 'string') {
    // Spec §2: green approved, red denied, yellow expired, grey otherwise.
    const color = credentialingStatusColor[value as keyof typeof credentialingStatusColor] ?? 'gray';
    return (
      <Badge color={badgeColor[color]} autoContrast variant="filled">
        {formatValue(sectionKey, field, value)}
      </Badge>
    );
  }
  return <>{formatValue(sectionKey, field, value)}</>;
}

/** One row as label/value pairs, in the registry's field order. */
function RowFields({ sectionKey, row }: { sectionKey: SectionKey; row: Record<string, SectionValue> }) {
  const section = sectionByKey[sectionKey];
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="xs" verticalSpacing={4} m={0}>
      {section.fields.map((field) => (
        <div key={field.name}>
          <Text component="dt" size="xs" c="dimmed">
            {field.label}
          </Text>
          <Text component="dd" size="sm" m={0}>
            <FieldValue
              sectionKey={sectionKey}
              field={field.name}
              value={shownValue(sectionKey, field.name, row)}
            />
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

function SectionBlock({ section }: { section: ProviderDetails['sections'][number] }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb="xs">
        {section.title}
      </Title>
      {section.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No records
        </Text>
      ) : (
        <Stack gap="xs">
          {section.rows.map((row) => (
            <Card key={row.id} withBorder padding="sm">
              <RowFields sectionKey={section.key} row={row} />
              {section.key === 'documents' && (
                <Group mt="xs">
                  <DocumentDownloadButton
                    documentId={row.id}
                    documentName={String(row.documentName)}
                    label="Download"
                  />
                </Group>
              )}
            </Card>
          ))}
        </Stack>
      )}
    </Box>
  );
}

type DetailsApplication = ProviderDetails['applications'][number];

/** The columns of 'Credentialing Cycles': a table on wide screens, cards on phones. */
const cycleColumns: TableColumn<DetailsApplication>[] = [
  {
    header: 'Application',
    render: (a) => (
      <>
        <Text span ff="monospace" size="sm">
          {a.id.slice(0, 8)}
        </Text>
        {a.copiedFromId && (
          <Text span size="xs" c="dimmed">
            {' '}
            (copy of {a.copiedFromId.slice(0, 8)})
          </Text>
        )}
      </>
    ),
  },
  { header: 'Started', render: (a) => formatDate(a.createdAt), noWrap: true },
  {
    header: 'Completed',
    render: (a) => (a.completion ? formatDate(a.completion.requestedAt) : '—'),
    noWrap: true,
  },
  { header: 'Decision', render: (a) => <StatusBadge status={a.applicationStatus} /> },
  { header: 'Decided', render: (a) => (a.decidedAt ? formatDate(a.decidedAt) : '—'), noWrap: true },
  {
    header: 'Recredentialing due',
    render: (a) => (a.recredentialingDueOn ? formatDate(a.recredentialingDueOn) : '—'),
    noWrap: true,
  },
];

/**
 * The provider's credentialing cycles (issue 14): each application, oldest first, with when it was
 * started, completed and decided, the decision, and an approved one's recredentialing due date.
 */
function CyclesTable({ applications }: { applications: DetailsApplication[] }) {
  const titleId = useId();
  const oldestFirst = [...applications].reverse();
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb={4}>
        Credentialing Cycles
      </Title>
      <ResponsiveTable
        rows={oldestFirst}
        columns={cycleColumns}
        rowKey={(a) => a.id}
        label="Credentialing cycles, oldest first"
        striped
      />
    </Box>
  );
}

function DetailsBody({
  details,
  onSelectApplication,
}: {
  details: ProviderDetails;
  onSelectApplication: (applicationId: string) => void;
}) {
  const { profile, applications, selectedApplicationId } = details;
  const selected = applications.find((a) => a.id === selectedApplicationId);
  const current = pickCurrentApplication(applications);
  return (
    <Stack>
      <Box component="section" aria-label="Profile">
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="xs" m={0}>
          {[
            ['Name', `${profile.firstName} ${profile.lastName}`],
            ['Email', profile.email],
            ['Joined', formatDate(profile.joinedAt)],
            ['Role', profile.role === 'admin' ? 'Admin' : 'Provider'],
          ].map(([label, value]) => (
            <div key={label}>
              <Text component="dt" size="xs" c="dimmed">
                {label}
              </Text>
              <Text component="dd" size="sm" m={0}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Box>
      {/* Issue 29 item 1: the credential beside the current cycle, each with its own badge. */}
      <CredentialAndCycle credential={details.credential} cycle={current ?? null} />
      {applications.length > 0 && <CyclesTable applications={applications} />}
      {!selected ? (
        <Text>No Application</Text>
      ) : (
        <Card withBorder padding="sm">
          <Stack gap="xs">
            {applications.length > 1 && (
              <Select
                label="Application"
                description="Open one of this provider's applications (newest first)"
                data={applications.map((a) => ({
                  value: a.id,
                  label: `${a.id.slice(0, 8)} · ${formatDate(a.createdAt)} · ${applicationStatusLabel[a.applicationStatus]}${
                    a.id === current?.id ? ' (current)' : ''
                  }`,
                }))}
                value={selected.id}
                allowDeselect={false}
                onChange={(value) => value && onSelectApplication(value)}
              />
            )}
            <Group justify="space-between">
              <Text size="sm">
                Application{' '}
                <Text span ff="monospace">
                  {selected.id.slice(0, 8)}
                </Text>
                , created {formatDate(selected.createdAt)}
                {selected.completion && `, completed ${formatDate(selected.completion.requestedAt)}`}
              </Text>
              <StatusBadge status={selected.applicationStatus} />
            </Group>
            {selected.applicationStatus !== 'draft' && (
              <Anchor component={Link} to={reviewPath(selected.id)} size="sm">
                Open Review
              </Anchor>
            )}
            <Group gap="xs" wrap="nowrap">
              <Progress.Root size="md" style={{ flex: 1 }}>
                <Progress.Section value={selected.progress} aria-label={`Progress ${selected.progress}%`} />
              </Progress.Root>
              <Text size="sm" fw={600}>
                {selected.progress}%
              </Text>
            </Group>
          </Stack>
        </Card>
      )}
      {details.sections.map((section) => (
        <SectionBlock key={section.key} section={section} />
      ))}
    </Stack>
  );
}

/**
 * The dialog for `userId` (closed when null). Each open is one audited request to the server.
 * Full-screen below the `sm` breakpoint, like every dialog (web/styles/phone-dialogs.css; issue 17).
 */
export function ProviderDetailsModal({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  // The application picked in the selector, remembered for the user it was picked for only.
  const [picked, setPicked] = useState<{ userId: string | null; applicationId?: string }>({ userId });
  const applicationId = picked.userId === userId ? picked.applicationId : undefined;
  const { data, isPending, isError, error, isFetching } = useProviderDetails(userId, applicationId);
  // two_factor_required is no failure to report: the app is taking the admin to the set-up page.
  const failed = isError && !isTwoFactorRequired(error);
  useEffect(() => {
    if (failed) notifyError('Error', 'Failed to load user details');
  }, [failed]);
  // Never show another provider's data while the next one loads.
  const details = data && data.profile.userId === userId ? data : undefined;
  return (
    <Modal
      opened={userId !== null}
      onClose={onClose}
      size="xl"
      title={details ? `${details.profile.firstName} ${details.profile.lastName}` : 'User details'}
      closeButtonProps={{ 'aria-label': 'Close details' }}
      // Long emails and names wrap instead of running past the edge of a phone's full-screen dialog.
      styles={{ body: { overflowWrap: 'anywhere' } }}
    >
      {details ? (
        <Box aria-busy={isFetching}>
          <DetailsBody
            details={details}
            onSelectApplication={(id) => setPicked({ userId, applicationId: id })}
          />
        </Box>
      ) : isPending || isFetching ? (
        <InlineLoader />
      ) : (
        <Text>We could not load this user's details. Close the dialog and try again.</Text>
      )}
    </Modal>
  );
}
