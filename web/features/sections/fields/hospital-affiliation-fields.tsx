/**
 * One hospital affiliation card (issue 31 item 1; domain/sections/hospital-affiliations.ts).
 *
 * 'Privilege Status' decides the rest: with privileges (active, courtesy, provisional) the card asks
 * for the facility (name required), its place, the department and the dates; with 'None (no admitting
 * privileges)' it asks instead who admits the provider's patients ('Admitting Arrangement') and their
 * name ('Covering Physician or Group'), both required. Switching between the two clears the fields of
 * the other, so no hidden answer is saved.
 */
import { NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  admittingArrangementLabel,
  admittingArrangements,
  privilegeStatuses,
  privilegeStatusLabel,
} from '../../../../domain/sections/hospital-affiliations.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface HospitalAffiliationValues {
  [field: string]: string;
  privilegeStatus: string;
  facilityName: string;
  city: string;
  state: string;
  department: string;
  startDate: string;
  endDate: string;
  admittingArrangement: string;
  arrangementName: string;
}

const facilityFields = ['facilityName', 'city', 'state', 'department', 'startDate', 'endDate'] as const;
const arrangementFields = ['admittingArrangement', 'arrangementName'] as const;

const statusData = privilegeStatuses.map((value) => ({ value, label: privilegeStatusLabel[value] }));
const arrangementData = [
  { value: '', label: 'Select an arrangement' },
  ...admittingArrangements.map((value) => ({ value, label: admittingArrangementLabel[value] })),
];

function HospitalAffiliationFields({ input, values, setValue }: FieldsProps<HospitalAffiliationValues>) {
  const status = input('privilegeStatus');
  const noPrivileges = values.privilegeStatus === 'none';
  return (
    <Stack>
      <NativeSelect
        label="Privilege Status"
        data={statusData}
        {...status}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setValue('privilegeStatus', next);
          for (const field of next === 'none' ? facilityFields : arrangementFields) setValue(field, '');
        }}
      />
      {noPrivileges ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label="Admitting Arrangement"
            description="Who admits your patients to the hospital"
            required
            data={arrangementData}
            {...input('admittingArrangement')}
          />
          <TextInput label="Covering Physician or Group" required {...input('arrangementName')} />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Facility Name" required {...input('facilityName')} />
          <TextInput label="Department" {...input('department')} />
          <TextInput label="City" {...input('city')} />
          <TextInput label="State" {...input('state')} />
          <TextInput label="Start Date" type="date" {...input('startDate')} />
          <TextInput
            label="End Date"
            type="date"
            description="When these privileges end, if known"
            {...input('endDate')}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

export const hospitalAffiliationsScreen = defineRepeatableScreen<HospitalAffiliationValues>({
  noun: 'Affiliation',
  empty: {
    privilegeStatus: 'active',
    facilityName: '',
    city: '',
    state: '',
    department: '',
    startDate: '',
    endDate: '',
    admittingArrangement: '',
    arrangementName: '',
  },
  Fields: HospitalAffiliationFields,
});
