/**
 * The peer reference add form and table (spec §3 peer_references, §5: reference name required; email
 * in email format; years known a whole number, 0 when blank).
 */
import { NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { YEARS_KNOWN_MAX } from '../../../../domain/sections/peer-references.ts';
import type { SectionRow } from '../../../../domain/sections/registry.ts';
import { type ApiRow, defineAddFormTableScreen, type FieldsProps } from '../screen-types.ts';
import { orDash } from './table-cells.tsx';

interface PeerReferenceValues {
  [field: string]: string | number;
  referenceName: string;
  title: string;
  organization: string;
  email: string;
  phone: string;
  relationship: string;
  /** '' when blank (stored as 0), else a whole number. */
  yearsKnown: string | number;
}

type PeerReferenceRow = SectionRow<'peerReferences'> & ApiRow;

function PeerReferenceFields({ input }: FieldsProps<PeerReferenceValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Reference Name" required {...input('referenceName')} />
      <TextInput label="Title" description="e.g. Chief of Medicine" {...input('title')} />
      <TextInput label="Organization" {...input('organization')} />
      <TextInput label="Email" type="email" {...input('email')} />
      <TextInput label="Phone" type="tel" {...input('phone')} />
      <TextInput label="Relationship" description="e.g. Colleague, Supervisor" {...input('relationship')} />
      <NumberInput
        label="Years Known"
        min={0}
        max={YEARS_KNOWN_MAX}
        step={1}
        // Issue 17: keep what was typed (-3 stays -3 and gets the schema's 'cannot be negative'; no
        // silent clamping). A decimal is kept too: the schema takes its whole part (spec §5 parseInt).
        clampBehavior="none"
        {...input('yearsKnown')}
      />
    </SimpleGrid>
  );
}

export const peerReferencesScreen = defineAddFormTableScreen<PeerReferenceValues, PeerReferenceRow>({
  noun: 'peer reference',
  addLabel: 'Add Reference',
  listTitle: 'Your Peer References',
  empty: {
    referenceName: '',
    title: '',
    organization: '',
    email: '',
    phone: '',
    relationship: '',
    yearsKnown: '',
  },
  Fields: PeerReferenceFields,
  columns: [
    { header: 'Reference Name', render: (row) => row.referenceName },
    { header: 'Title', render: (row) => orDash(row.title) },
    { header: 'Organization', render: (row) => orDash(row.organization) },
    { header: 'Email', render: (row) => orDash(row.email) },
    { header: 'Phone', render: (row) => orDash(row.phone) },
    { header: 'Relationship', render: (row) => orDash(row.relationship) },
    { header: 'Years Known', render: (row) => row.yearsKnown },
  ],
  rowName: (row) => row.referenceName,
});
