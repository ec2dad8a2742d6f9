/**
 * The payor add form and table (spec §3 payors, §5 "payor_name required", §9 default status 'pending').
 * The credentialing status shows as a badge: green approved, red denied, yellow expired, grey otherwise
 * (spec §2), in AA-contrast shades (web/theme.ts).
 */
import { Badge, NativeSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import {
  type CredentialingStatus,
  credentialingStatusColor,
  credentialingStatuses,
  credentialingStatusLabel,
  DEFAULT_CREDENTIALING_STATUS,
} from '../../../../domain/sections/payors.ts';
import type { SectionRow } from '../../../../domain/sections/registry.ts';
import { badgeColor } from '../../../theme.ts';
import { type ApiRow, defineAddFormTableScreen, type FieldsProps } from '../screen-types.ts';
import { dateCell, orDash } from './table-cells.tsx';

interface PayorValues {
  [field: string]: string;
  payorName: string;
  contractType: string;
  contractStartDate: string;
  contractEndDate: string;
  credentialingStatus: string;
  notes: string;
}

type PayorRow = SectionRow<'payors'> & ApiRow;

const statusData = credentialingStatuses.map((value) => ({ value, label: credentialingStatusLabel[value] }));

function PayorFields({ input }: FieldsProps<PayorValues>) {
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Payor Name" required {...input('payorName')} />
        <TextInput
          label="Contract Type"
          description="e.g. Commercial, Medicare Advantage"
          {...input('contractType')}
        />
        <TextInput label="Contract Start Date" type="date" {...input('contractStartDate')} />
        <TextInput label="Contract End Date" type="date" {...input('contractEndDate')} />
        <NativeSelect label="Credentialing Status" data={statusData} {...input('credentialingStatus')} />
      </SimpleGrid>
      <Textarea label="Notes" autosize minRows={2} {...input('notes')} />
    </Stack>
  );
}

/** Credentialing status badge (spec §2): green approved, red denied, yellow expired, grey otherwise. */
export function CredentialingStatusBadge({ status }: { status: CredentialingStatus }) {
  return (
    <Badge color={badgeColor[credentialingStatusColor[status]]} variant="filled" autoContrast>
      {credentialingStatusLabel[status]}
    </Badge>
  );
}

export const payorsScreen = defineAddFormTableScreen<PayorValues, PayorRow>({
  noun: 'payor',
  addLabel: 'Add Payor',
  listTitle: 'Your Payors',
  empty: {
    payorName: '',
    contractType: '',
    contractStartDate: '',
    contractEndDate: '',
    credentialingStatus: DEFAULT_CREDENTIALING_STATUS,
    notes: '',
  },
  Fields: PayorFields,
  columns: [
    { header: 'Payor Name', render: (row) => row.payorName },
    { header: 'Contract Type', render: (row) => orDash(row.contractType) },
    { header: 'Contract Start', render: (row) => dateCell(row.contractStartDate) },
    { header: 'Contract End', render: (row) => dateCell(row.contractEndDate) },
    {
      header: 'Credentialing Status',
      render: (row) => <CredentialingStatusBadge status={row.credentialingStatus} />,
    },
    { header: 'Notes', render: (row) => orDash(row.notes) },
  ],
  rowName: (row) => row.payorName,
});
