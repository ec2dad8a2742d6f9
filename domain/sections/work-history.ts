/**
 * Section 4, Work History (spec §3 work_history). Repeatable cards, 'Add Position'. No field is required
 * (spec §5). The current-position checkbox disables the end date (spec §2, §4): when `isCurrentPosition`
 * is true the parsed `endDate` is null whatever was sent (transform, not an error), so a stale end date
 * typed before ticking the box is dropped silently.
 */
import { z } from 'zod';
import {
  defineListSection,
  flag,
  joinSummary,
  optionalDate,
  optionalPersonNameText,
  optionalText,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';
import { GAP_EXPLANATION_LABEL } from './work-history-gaps.ts';

export const workHistorySchema = z
  .object({
    employerName: optionalText(TEXT_MAX.name),
    positionTitle: optionalText(TEXT_MAX.name),
    startDate: optionalDate(),
    endDate: optionalDate(),
    isCurrentPosition: flag(),
    responsibilities: optionalText(TEXT_MAX.long),
    supervisorName: optionalPersonNameText('Supervisor name', TEXT_MAX.name),
    /** Phone or email of the supervisor, free text. */
    supervisorContact: optionalText(TEXT_MAX.name),
    /**
     * The provider's explanation of the gap of 6 months or more before this position, or of the time
     * since it ended when it is the last (issue 29 item 7, NCQA CR 3; work-history-gaps.ts). Optional
     * here: completion refuses an unexplained gap. Kept when the gap goes away (the screen hides it).
     */
    gapExplanation: optionalText(TEXT_MAX.long),
  })
  // `overwrite` keeps this a ZodObject (so it can still be extended with `id`), unlike `transform`.
  .overwrite((row) => (row.isCurrentPosition ? { ...row, endDate: null } : row));
export type WorkHistoryInput = z.input<typeof workHistorySchema>;
export type WorkHistory = z.output<typeof workHistorySchema>;

export const workHistorySection = defineListSection({
  key: 'workHistory',
  ...sectionCatalog.workHistory,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Position',
  schema: workHistorySchema,
  fields: [
    { name: 'employerName', label: 'Employer Name' },
    { name: 'positionTitle', label: 'Position Title' },
    { name: 'startDate', label: 'Start Date' },
    { name: 'endDate', label: 'End Date' },
    { name: 'isCurrentPosition', label: 'Current Position' },
    { name: 'responsibilities', label: 'Responsibilities' },
    { name: 'supervisorName', label: 'Supervisor Name' },
    { name: 'supervisorContact', label: 'Supervisor Contact' },
    { name: 'gapExplanation', label: GAP_EXPLANATION_LABEL },
  ],
  summarize: (row) =>
    joinSummary(
      row.positionTitle,
      row.employerName,
      row.startDate || row.endDate || row.isCurrentPosition
        ? `${row.startDate ?? '?'} – ${row.isCurrentPosition ? 'present' : (row.endDate ?? '?')}`
        : null,
    ),
  messages: {
    loadError: 'Failed to load work history',
    saveError: 'Failed to save work history',
    saveSuccess: 'Work history saved successfully',
  },
});
