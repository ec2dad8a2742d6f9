/**
 * Training (issue 31 item 1; CAQH ProView "Education & Professional Training", the state uniform
 * applications' internship, residency and fellowship questions, NCQA CR 3, which verifies the highest
 * level of training). Repeatable cards, 'Add Training'.
 *
 * A card is one program: its type, name, institution, specialty, dates, and whether it was completed
 * (with the reason when not). A provider with no postgraduate training (most nurses, for example)
 * answers 'No internship, residency or fellowship' instead: a card with only `noTraining` set, the
 * section's only card (the section's none answer, section.ts).
 */
import { z } from 'zod';
import {
  defineListSection,
  flag,
  joinSummary,
  type NoneAnswer,
  optionalDate,
  optionalEnum,
  optionalText,
  refineDateOrder,
  refineNoneAnswerRow,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const trainingTypes = ['internship', 'residency', 'fellowship'] as const;
export type TrainingType = (typeof trainingTypes)[number];
export const trainingTypeLabel: Record<TrainingType, string> = {
  internship: 'Internship',
  residency: 'Residency',
  fellowship: 'Fellowship',
};

export const yesNo = ['yes', 'no'] as const;
export type YesNo = (typeof yesNo)[number];
export const yesNoLabel: Record<YesNo, string> = { yes: 'Yes', no: 'No' };

export const NO_TRAINING: NoneAnswer = {
  field: 'noTraining',
  label: 'No internship, residency or fellowship',
  noun: 'training programs',
};

export const trainingSchema = z
  .object({
    noTraining: flag(),
    trainingType: optionalEnum(trainingTypes, 'Choose internship, residency or fellowship'),
    programName: optionalText(TEXT_MAX.name),
    institutionName: optionalText(TEXT_MAX.name),
    specialty: optionalText(TEXT_MAX.name),
    startDate: optionalDate(),
    endDate: optionalDate(),
    completed: optionalEnum(yesNo, 'Choose yes or no'),
    /** Why the program was not completed; required when `completed` is 'no'. */
    notCompletedReason: optionalText(TEXT_MAX.long),
  })
  .superRefine((row, ctx) => {
    if (row.noTraining) {
      refineNoneAnswerRow(NO_TRAINING, row, ctx);
      return;
    }
    if (!row.trainingType) {
      ctx.addIssue({
        code: 'custom',
        path: ['trainingType'],
        message: 'Choose internship, residency or fellowship',
      });
    }
    if (!row.programName && !row.institutionName) {
      ctx.addIssue({
        code: 'custom',
        path: ['institutionName'],
        message: 'Enter the institution or the program name',
      });
    }
    if (row.completed === 'no' && !row.notCompletedReason) {
      ctx.addIssue({
        code: 'custom',
        path: ['notCompletedReason'],
        message: 'Explain why the program was not completed',
      });
    }
    refineDateOrder(ctx, row.startDate, row.endDate, 'endDate', 'The end date is before the start date');
  });
export type TrainingInput = z.input<typeof trainingSchema>;
export type Training = z.output<typeof trainingSchema>;

export const trainingSection = defineListSection({
  key: 'training',
  ...sectionCatalog.training,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Training',
  schema: trainingSchema,
  noneAnswer: NO_TRAINING,
  fields: [
    { name: 'noTraining', label: NO_TRAINING.label },
    { name: 'trainingType', label: 'Training Type' },
    { name: 'programName', label: 'Program Name' },
    { name: 'institutionName', label: 'Institution' },
    { name: 'specialty', label: 'Specialty' },
    { name: 'startDate', label: 'Start Date' },
    { name: 'endDate', label: 'End Date' },
    { name: 'completed', label: 'Completed' },
    { name: 'notCompletedReason', label: 'Reason Not Completed' },
  ],
  summarize: (row) =>
    row.noTraining
      ? NO_TRAINING.label
      : joinSummary(
          row.trainingType && trainingTypeLabel[row.trainingType],
          row.specialty,
          row.programName ?? row.institutionName,
          row.completed === 'no' && 'not completed',
        ),
  messages: {
    loadError: 'Failed to load training',
    saveError: 'Failed to save training',
    saveSuccess: 'Training saved successfully',
  },
});
