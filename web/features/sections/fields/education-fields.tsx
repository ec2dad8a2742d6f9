/**
 * One education card (spec §3 education): institution, degree type, field of study, graduation date,
 * GPA (free text). No field is required (spec §5).
 */
import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { degreeTypeLabel, degreeTypes } from '../../../../domain/sections/education.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface EducationValues {
  [field: string]: string;
  institutionName: string;
  degreeType: string;
  fieldOfStudy: string;
  graduationDate: string;
  gpa: string;
}

const degreeTypeData = [
  { value: '', label: 'Select degree type' },
  ...degreeTypes.map((value) => ({ value, label: degreeTypeLabel[value] })),
];

function EducationFields({ input }: FieldsProps<EducationValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Institution Name" {...input('institutionName')} />
      <NativeSelect label="Degree Type" data={degreeTypeData} {...input('degreeType')} />
      <TextInput label="Field of Study" {...input('fieldOfStudy')} />
      <TextInput label="Graduation Date" type="date" {...input('graduationDate')} />
      <TextInput label="GPA" description="As written on your transcript, e.g. 3.8 / 4.0" {...input('gpa')} />
    </SimpleGrid>
  );
}

export const educationScreen = defineRepeatableScreen<EducationValues>({
  noun: 'Education',
  empty: { institutionName: '', degreeType: '', fieldOfStudy: '', graduationDate: '', gpa: '' },
  Fields: EducationFields,
});
