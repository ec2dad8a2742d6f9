/**
 * One training program card (issue 31 item 1; domain/sections/training.ts): internship, residency or
 * fellowship, the program and institution (one of the two required), the specialty, the dates, and
 * whether it was completed. 'Reason Not Completed' shows when the answer is No (required then), and
 * is cleared when the answer changes back. The section's none answer ('No internship, residency or
 * fellowship') is the page's checkbox above the cards (repeatable-cards-page.tsx), not a card field.
 */
import { Group, NativeSelect, Radio, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { TEXT_MAX } from '../../../../domain/sections/section.ts';
import { trainingTypeLabel, trainingTypes, yesNo, yesNoLabel } from '../../../../domain/sections/training.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface TrainingValues {
  [field: string]: string | boolean;
  noTraining: boolean;
  trainingType: string;
  programName: string;
  institutionName: string;
  specialty: string;
  startDate: string;
  endDate: string;
  /** 'yes' | 'no' | '' (not answered). */
  completed: string;
  notCompletedReason: string;
}

const trainingTypeData = [
  { value: '', label: 'Select training type' },
  ...trainingTypes.map((value) => ({ value, label: trainingTypeLabel[value] })),
];

function TrainingFields({ input, values, setValue }: FieldsProps<TrainingValues>) {
  const completed = input('completed');
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect label="Training Type" required data={trainingTypeData} {...input('trainingType')} />
        <TextInput label="Program Name" {...input('programName')} />
        <TextInput
          label="Institution"
          description="The hospital or school; this or the program name"
          {...input('institutionName')}
        />
        <TextInput label="Specialty" description="e.g. Internal Medicine" {...input('specialty')} />
        <TextInput label="Start Date" type="date" {...input('startDate')} />
        <TextInput label="End Date" type="date" {...input('endDate')} />
      </SimpleGrid>
      <Radio.Group
        label="Completed"
        {...completed}
        onChange={(answer) => {
          setValue('completed', answer);
          if (answer !== 'no') setValue('notCompletedReason', '');
        }}
      >
        <Group mt="xs">
          {yesNo.map((answer) => (
            <Radio key={answer} value={answer} label={yesNoLabel[answer]} />
          ))}
        </Group>
      </Radio.Group>
      {values.completed === 'no' && (
        <Textarea
          label="Reason Not Completed"
          required
          autosize
          minRows={2}
          maxLength={TEXT_MAX.long}
          {...input('notCompletedReason')}
        />
      )}
    </Stack>
  );
}

export const trainingScreen = defineRepeatableScreen<TrainingValues>({
  noun: 'Training Program',
  empty: {
    noTraining: false,
    trainingType: '',
    programName: '',
    institutionName: '',
    specialty: '',
    startDate: '',
    endDate: '',
    completed: '',
    notCompletedReason: '',
  },
  Fields: TrainingFields,
});
