/**
 * One practice location card (issue 31 item 1; domain/sections/practice-locations.ts): the practice
 * name (required), its group NPI (type 2, check digit verified by the schema), address, contact
 * numbers, whether it is the primary location (one at most, the section's rowsRule), whether it
 * accepts new patients, and the directory details (languages, office hours, accessibility).
 */
import { Checkbox, NativeSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import {
  acceptingNewPatientsLabel,
  acceptingNewPatientsOptions,
} from '../../../../domain/sections/practice-locations.ts';
import { TEXT_MAX } from '../../../../domain/sections/section.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface PracticeLocationValues {
  [field: string]: string | boolean;
  practiceName: string;
  groupNpi: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
  phone: string;
  fax: string;
  email: string;
  isPrimaryLocation: boolean;
  acceptingNewPatients: string;
  languagesSpoken: string;
  officeHours: string;
  accessibilityNotes: string;
}

const acceptingData = [
  { value: '', label: 'Select an answer' },
  ...acceptingNewPatientsOptions.map((value) => ({ value, label: acceptingNewPatientsLabel[value] })),
];

function PracticeLocationFields({ input }: FieldsProps<PracticeLocationValues>) {
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Practice Name" required {...input('practiceName')} />
        <TextInput
          label="Group NPI"
          description="The practice's 10-digit organization (type 2) NPI"
          inputMode="numeric"
          {...input('groupNpi')}
        />
        <TextInput label="Address Line 1" {...input('addressLine1')} />
        <TextInput label="Address Line 2" {...input('addressLine2')} />
        <TextInput label="City" {...input('city')} />
        <TextInput label="State" {...input('state')} />
        <TextInput label="ZIP Code" {...input('zipCode')} />
        <TextInput label="Phone" type="tel" {...input('phone')} />
        <TextInput label="Fax" type="tel" {...input('fax')} />
        <TextInput label="Email" type="email" {...input('email')} />
      </SimpleGrid>
      <Checkbox label="Primary location" {...input('isPrimaryLocation', { type: 'checkbox' })} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect
          label="Accepting New Patients"
          data={acceptingData}
          {...input('acceptingNewPatients')}
        />
        <TextInput
          label="Languages Spoken"
          description="Spoken at this office, e.g. English, Spanish"
          {...input('languagesSpoken')}
        />
      </SimpleGrid>
      <Textarea
        label="Office Hours"
        description="e.g. Mon-Fri 8:00-17:00"
        autosize
        minRows={2}
        maxLength={TEXT_MAX.long}
        {...input('officeHours')}
      />
      <Textarea
        label="Accessibility Notes"
        description="Physical accessibility of the office, e.g. step-free entrance, accessible exam room"
        autosize
        minRows={2}
        maxLength={TEXT_MAX.long}
        {...input('accessibilityNotes')}
      />
    </Stack>
  );
}

export const practiceLocationsScreen = defineRepeatableScreen<PracticeLocationValues>({
  noun: 'Location',
  empty: {
    practiceName: '',
    groupNpi: '',
    addressLine1: '',
    addressLine2: '',
    city: '',
    state: '',
    zipCode: '',
    phone: '',
    fax: '',
    email: '',
    isPrimaryLocation: false,
    acceptingNewPatients: '',
    languagesSpoken: '',
    officeHours: '',
    accessibilityNotes: '',
  },
  Fields: PracticeLocationFields,
});
