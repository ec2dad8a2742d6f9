/**
 * Section 9, CME Credits (spec §3 cme). Add form plus table, by completion date, newest first (spec §9).
 * `activityTitle` and `providerName` (the CME provider, not the clinician) are required; credit hours,
 * completion date, certificate number and category are null when empty (spec §5). Load failures are
 * only logged.
 */
import { z } from 'zod';
import {
  defineListSection,
  joinSummary,
  numberInput,
  optionalDate,
  optionalEnum,
  optionalText,
  requiredText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

/** CME categories; the values are also the labels. */
export const cmeCategories = [
  'Category 1',
  'Category 2',
  'Self-Assessment',
  'Board Certification',
  'Other',
] as const;
export type CmeCategory = (typeof cmeCategories)[number];

/** Credit hours input step (spec §9) and upper bound (the column is numeric(5,1)). */
export const CME_CREDIT_HOURS_STEP = 0.5;
export const CME_CREDIT_HOURS_MAX = 999;

export const cmeSchema = z.object({
  activityTitle: requiredText('Activity title'),
  providerName: requiredText('CME provider name'),
  category: optionalEnum(cmeCategories, 'Choose a category from the list'),
  creditHours: numberInput(null, 'Enter credit hours as a number').pipe(
    z
      .number()
      .min(0, 'Credit hours cannot be negative')
      .max(CME_CREDIT_HOURS_MAX, `Credit hours must be at most ${CME_CREDIT_HOURS_MAX}`)
      .multipleOf(CME_CREDIT_HOURS_STEP, 'Enter credit hours in steps of 0.5')
      .nullable(),
  ),
  completionDate: optionalDate(),
  certificateNumber: optionalText(TEXT_MAX.code),
});
export type CmeInput = z.input<typeof cmeSchema>;
export type Cme = z.output<typeof cmeSchema>;

export const cmeSection = defineListSection({
  key: 'cme',
  ...sectionCatalog.cme,
  kind: 'list',
  layout: 'add-form-table',
  orderBy: 'completionDate',
  schema: cmeSchema,
  fields: [
    { name: 'activityTitle', label: 'Activity Title' },
    { name: 'providerName', label: 'Provider Name' },
    { name: 'category', label: 'Category' },
    { name: 'creditHours', label: 'Credit Hours' },
    { name: 'completionDate', label: 'Completion Date' },
    { name: 'certificateNumber', label: 'Certificate Number' },
  ],
  summarize: (row) =>
    joinSummary(
      row.activityTitle,
      row.providerName,
      row.creditHours !== null && `${row.creditHours} ${row.creditHours === 1 ? 'hour' : 'hours'}`,
      row.completionDate,
    ),
  messages: {
    saveError: 'Failed to save CME record.',
    saveSuccess: 'CME record saved successfully.',
    deleteError: 'Failed to delete CME record.',
    deleteSuccess: 'CME record deleted successfully.',
  },
});
