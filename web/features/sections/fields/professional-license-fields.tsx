/**
 * One professional license card (spec §3 professional_licenses): type, number, issuing state, issue and
 * expiration dates, status (default 'active', spec §9). No field is required (spec §5).
 */
import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import {
  DEFAULT_LICENSE_STATUS,
  licenseStatuses,
  licenseStatusLabel,
  licenseTypeLabel,
  licenseTypes,
} from '../../../../domain/sections/professional-licenses.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface LicenseValues {
  [field: string]: string;
  licenseType: string;
  licenseNumber: string;
  issuingState: string;
  issueDate: string;
  expirationDate: string;
  status: string;
}

const licenseTypeData = [
  { value: '', label: 'Select license type' },
  ...licenseTypes.map((value) => ({ value, label: licenseTypeLabel[value] })),
];
const statusData = licenseStatuses.map((value) => ({ value, label: licenseStatusLabel[value] }));

function ProfessionalLicenseFields({ input }: FieldsProps<LicenseValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NativeSelect label="License Type" data={licenseTypeData} {...input('licenseType')} />
      <TextInput label="License Number" {...input('licenseNumber')} />
      <TextInput label="Issuing State" {...input('issuingState')} />
      <NativeSelect label="Status" data={statusData} {...input('status')} />
      <TextInput label="Issue Date" type="date" {...input('issueDate')} />
      <TextInput label="Expiration Date" type="date" {...input('expirationDate')} />
    </SimpleGrid>
  );
}

export const professionalLicensesScreen = defineRepeatableScreen<LicenseValues>({
  noun: 'License',
  empty: {
    licenseType: '',
    licenseNumber: '',
    issuingState: '',
    issueDate: '',
    expirationDate: '',
    status: DEFAULT_LICENSE_STATUS,
  },
  Fields: ProfessionalLicenseFields,
});
