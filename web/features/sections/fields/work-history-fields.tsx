/**
 * One work history card (spec §3 work_history). The current-position checkbox disables the end date and
 * clears it (spec §2, §4); the schema drops an end date of a current position too. No field is required.
 *
 * Issue 29 item 7 (NCQA CR 3): the gaps of 6 months or more are computed live from the cards on screen
 * and the education section's graduation dates (domain/sections/work-history-gaps.ts, the rules the
 * completion applies). The card after a gap (or, for the time since, the position that ended last)
 * shows 'Gap explanation', described with the gap. A card with no gap shows no such field, unless it
 * holds an explanation saved for an earlier gap: that one stays visible, so the provider can clear it
 * (kept, never dropped silently).
 */
import { Checkbox, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useParams } from 'react-router';
import { isoDay } from '../../../../domain/calendar.ts';
import { TEXT_MAX } from '../../../../domain/sections/section.ts';
import {
  GAP_EXPLANATION_LABEL,
  gapDescription,
  workHistoryGaps,
} from '../../../../domain/sections/work-history-gaps.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';
import { useSectionRows } from '../sections-api.ts';

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
  gapExplanation: string;
}

/** What the explanation field says when its gap is gone (dates changed) but text is still saved. */
const NO_GAP_NOW =
  'There is no gap of 6 months or more next to this position now. Clear this explanation if it no longer applies.';

/** The education section's graduation dates (the end of training), read with the section API. */
function useGraduationDates(): string[] {
  const { applicationId = '' } = useParams();
  const education = useSectionRows(applicationId, 'education');
  return (education.data ?? []).map((row) => String(row.graduationDate ?? ''));
}

function WorkHistoryFields({ input, values, setValue, cards, index = 0 }: FieldsProps<WorkHistoryValues>) {
  const current = input('isCurrentPosition', { type: 'checkbox' });
  const graduationDates = useGraduationDates();
  const gaps = workHistoryGaps(cards ?? [values], graduationDates, isoDay(new Date())).filter(
    (gap) => gap.explainedBy === index,
  );
  const explanationShown = gaps.length > 0 || values.gapExplanation.trim() !== '';
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
      {explanationShown && (
        <Textarea
          label={GAP_EXPLANATION_LABEL}
          description={gaps.length > 0 ? gaps.map(gapDescription).join(' ') : NO_GAP_NOW}
          autosize
          minRows={2}
          maxLength={TEXT_MAX.long}
          {...input('gapExplanation')}
        />
      )}
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
    gapExplanation: '',
  },
  Fields: WorkHistoryFields,
});
