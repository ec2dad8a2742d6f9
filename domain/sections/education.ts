/** Section 3, Education (spec §3 education). Repeatable cards, 'Add Education'. No field is required (spec §5). */
import { z } from 'zod';
import {
  defineListSection,
  joinSummary,
  optionalDate,
  optionalEnum,
  optionalText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const degreeTypes = ['associate', 'bachelor', 'master', 'doctorate', 'certificate'] as const;
export type DegreeType = (typeof degreeTypes)[number];
export const degreeTypeLabel: Record<DegreeType, string> = {
  associate: 'Associate',
  bachelor: 'Bachelor',
  master: 'Master',
  doctorate: 'Doctorate',
  certificate: 'Certificate',
};

export const educationSchema = z.object({
  institutionName: optionalText(TEXT_MAX.name),
  degreeType: optionalEnum(degreeTypes, 'Choose a degree type from the list'),
  fieldOfStudy: optionalText(TEXT_MAX.name),
  graduationDate: optionalDate(),
  /** Free text (spec §3: gpa is text), e.g. '3.8' or '3.8 / 4.0'. */
  gpa: optionalText(20),
});
export type EducationInput = z.input<typeof educationSchema>;
export type Education = z.output<typeof educationSchema>;

export const educationSection = defineListSection({
  key: 'education',
  ...sectionCatalog.education,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Education',
  schema: educationSchema,
  fields: [
    { name: 'institutionName', label: 'Institution Name' },
    { name: 'degreeType', label: 'Degree Type' },
    { name: 'fieldOfStudy', label: 'Field of Study' },
    { name: 'graduationDate', label: 'Graduation Date' },
    { name: 'gpa', label: 'GPA' },
  ],
  summarize: (row) =>
    joinSummary(
      row.degreeType && degreeTypeLabel[row.degreeType],
      row.fieldOfStudy,
      row.institutionName,
      row.graduationDate,
    ),
  messages: {
    loadError: 'Failed to load education records',
    saveError: 'Failed to save education records',
    saveSuccess: 'Education records saved successfully',
  },
});
