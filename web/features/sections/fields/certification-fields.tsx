/**
 * The certification add form and table (spec §3 certifications, §5 "certification_name and
 * certifying_body required"; empty dates are sent as null).
 */
import { SimpleGrid, TextInput } from '@mantine/core';
import type { SectionRow } from '../../../../domain/sections/registry.ts';
import { type ApiRow, defineAddFormTableScreen, type FieldsProps } from '../screen-types.ts';
import { dateCell, orDash } from './table-cells.tsx';

interface CertificationValues {
  [field: string]: string;
  certificationName: string;
  certifyingBody: string;
  certificationNumber: string;
  issueDate: string;
  expirationDate: string;
}

type CertificationRow = SectionRow<'certifications'> & ApiRow;

function CertificationFields({ input }: FieldsProps<CertificationValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
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
    certificationName: '',
    certifyingBody: '',
    certificationNumber: '',
    issueDate: '',
    expirationDate: '',
  },
  Fields: CertificationFields,
  columns: [
    { header: 'Certification Name', render: (row) => row.certificationName },
    { header: 'Certifying Body', render: (row) => row.certifyingBody },
    { header: 'Certification Number', render: (row) => orDash(row.certificationNumber) },
    { header: 'Issue Date', render: (row) => dateCell(row.issueDate) },
    { header: 'Expiration Date', render: (row) => dateCell(row.expirationDate) },
  ],
  rowName: (row) => row.certificationName,
});
