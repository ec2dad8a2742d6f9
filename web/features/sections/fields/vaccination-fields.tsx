/**
 * One vaccination card (spec §3 vaccinations): vaccine (option list), administration and expiration
 * dates, lot number, administering provider. No field is required (spec §5).
 */
import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { vaccineNameLabel, vaccineNames } from '../../../../domain/sections/vaccinations.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface VaccinationValues {
  [field: string]: string;
  vaccineName: string;
  administrationDate: string;
  expirationDate: string;
  lotNumber: string;
  administeringProvider: string;
}

const vaccineData = [
  { value: '', label: 'Select vaccine' },
  ...vaccineNames.map((value) => ({ value, label: vaccineNameLabel[value] })),
];

function VaccinationFields({ input }: FieldsProps<VaccinationValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NativeSelect label="Vaccine Name" data={vaccineData} {...input('vaccineName')} />
      <TextInput label="Administration Date" type="date" {...input('administrationDate')} />
      <TextInput label="Expiration Date" type="date" {...input('expirationDate')} />
      <TextInput label="Lot Number" {...input('lotNumber')} />
      <TextInput label="Administering Provider" {...input('administeringProvider')} />
    </SimpleGrid>
  );
}

export const vaccinationsScreen = defineRepeatableScreen<VaccinationValues>({
  noun: 'Vaccination',
  empty: {
    vaccineName: '',
    administrationDate: '',
    expirationDate: '',
    lotNumber: '',
    administeringProvider: '',
  },
  Fields: VaccinationFields,
});
