/**
 * One work history card (spec §3 work_history). The current-position checkbox disables the end date and
 * clears it (spec §2, §4); the schema drops an end date of a current position too. No field is required.
 */
import { Checkbox, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface WorkHistoryValues {
  [field: string]: string | boolean;
  employerName: string;
  positionTitle: string;
  startDate: string;
  endDate: string;
  isCurrentPosition: boolean;
  responsibilities: string;
  supervisorName: string;
  supervisorContact: string;
}

function WorkHistoryFields({ input, values, setValue }: FieldsProps<WorkHistoryValues>) {
  const current = input('isCurrentPosition', { type: 'checkbox' });
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Employer Name" {...input('employerName')} />
        <TextInput label="Position Title" {...input('positionTitle')} />
        <TextInput label="Start Date" type="date" {...input('startDate')} />
        <TextInput
          label="End Date"
          type="date"
          disabled={values.isCurrentPosition}
          description={values.isCurrentPosition ? 'Not needed for your current position' : undefined}
          {...input('endDate')}
        />
      </SimpleGrid>
      <Checkbox
        label="Current position"
        {...current}
        onChange={(event) => {
          const checked = event.currentTarget.checked;
          setValue('isCurrentPosition', checked);
          if (checked) setValue('endDate', '');
        }}
      />
      <Textarea label="Responsibilities" autosize minRows={3} {...input('responsibilities')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Supervisor Name" {...input('supervisorName')} />
        <TextInput label="Supervisor Contact" description="Phone or email" {...input('supervisorContact')} />
      </SimpleGrid>
    </Stack>
  );
}

export const workHistoryScreen = defineRepeatableScreen<WorkHistoryValues>({
  noun: 'Position',
  empty: {
    employerName: '',
    positionTitle: '',
    startDate: '',
    endDate: '',
    isCurrentPosition: false,
    responsibilities: '',
    supervisorName: '',
    supervisorContact: '',
  },
  Fields: WorkHistoryFields,
});
