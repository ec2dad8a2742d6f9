/**
 * The certification add form and table (spec §3 certifications, §5 "certification_name and
 * certifying_body required"; empty dates are sent as null). 'Certification Type' (issue 51 item 4) is
 * required: a board certification is verified with its board and may certify a specialty; any other
 * (ACLS, BLS, PALS) is kept without a checklist item.
 */
import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { certificationKindLabel, certificationKinds } from '../../../../domain/sections/certifications.ts';
import type { SectionRow } from '../../../../domain/sections/registry.ts';
import { type ApiRow, defineAddFormTableScreen, type FieldsProps } from '../screen-types.ts';
import { dateCell, orDash } from './table-cells.tsx';

interface CertificationValues {
  [field: string]: string;
  /** 'board' | 'other'; '' until one is chosen. */
  certificationKind: string;
  certificationName: string;
  certifyingBody: string;
  certificationNumber: string;
  issueDate: string;
  expirationDate: string;
}

type CertificationRow = SectionRow<'certifications'> & ApiRow;

const kindData = [
  { value: '', label: 'Select certification type' },
  ...certificationKinds.map((value) => ({ value, label: certificationKindLabel[value] })),
];

function CertificationFields({ input }: FieldsProps<CertificationValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NativeSelect label="Certification Type" required data={kindData} {...input('certificationKind')} />
      <TextInput
        label="Certification Name"
        description="e.g. Board Certification in Internal Medicine"
        required
        {...input('certificationName')}
      />
      <TextInput
        label="Certifying Body"
        description="e.g. American Board of Internal Medicine"
        required
        {...input('certifyingBody')}
      />
      <TextInput label="Certification Number" {...input('certificationNumber')} />
      <TextInput label="Issue Date" type="date" {...input('issueDate')} />
      <TextInput label="Expiration Date" type="date" {...input('expirationDate')} />
    </SimpleGrid>
  );
}

export const certificationsScreen = defineAddFormTableScreen<CertificationValues, CertificationRow>({
  noun: 'certification',
  addLabel: 'Add Certification',
  listTitle: 'Your Certifications',
  empty: {
    certificationKind: '',
    certificationName: '',
    certifyingBody: '',
    certificationNumber: '',
    issueDate: '',
    expirationDate: '',
  },
  Fields: CertificationFields,
  columns: [
    { header: 'Certification Type', render: (row) => certificationKindLabel[row.certificationKind] },
    { header: 'Certification Name', render: (row) => row.certificationName },
    { header: 'Certifying Body', render: (row) => row.certifyingBody },
    { header: 'Certification Number', render: (row) => orDash(row.certificationNumber) },
    { header: 'Issue Date', render: (row) => dateCell(row.issueDate) },
    { header: 'Expiration Date', render: (row) => dateCell(row.expirationDate) },
  ],
  rowName: (row) => row.certificationName,
});
