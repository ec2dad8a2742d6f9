/**
 * The CME add form and table (spec §3 cme, §5: activity title and provider name required; credit hours
 * in steps of 0.5; empty optional fields sent as null). "Provider" here is the organisation that gave
 * the activity, not the clinician.
 */
import { NativeSelect, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import {
  CME_CREDIT_HOURS_MAX,
  CME_CREDIT_HOURS_STEP,
  cmeCategories,
} from '../../../../domain/sections/cme.ts';
import type { SectionRow } from '../../../../domain/sections/registry.ts';
import { type ApiRow, defineAddFormTableScreen, type FieldsProps } from '../screen-types.ts';
import { dateCell, orDash } from './table-cells.tsx';

interface CmeValues {
  [field: string]: string | number;
  activityTitle: string;
  providerName: string;
  category: string;
  /** '' when blank (sent as null), else a number. */
  creditHours: string | number;
  completionDate: string;
  certificateNumber: string;
}

type CmeRow = SectionRow<'cme'> & ApiRow;

const categoryData = [
  { value: '', label: 'Select category' },
  ...cmeCategories.map((value) => ({ value, label: value })),
];

function CmeFields({ input }: FieldsProps<CmeValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Activity Title" required {...input('activityTitle')} />
      <TextInput
        label="Provider Name"
        description="The organisation that provided the activity"
        required
        {...input('providerName')}
      />
      <NativeSelect label="Category" data={categoryData} {...input('category')} />
      <NumberInput
        label="Credit Hours"
        step={CME_CREDIT_HOURS_STEP}
        min={0}
        max={CME_CREDIT_HOURS_MAX}
        // Issue 17: keep what was typed (1.25 stays 1.25, 900 stays 900); the section schema's message
        // says what is allowed, rather than the input rounding or clamping it silently.
        clampBehavior="none"
        description="In steps of 0.5"
        {...input('creditHours')}
      />
      <TextInput label="Completion Date" type="date" {...input('completionDate')} />
      <TextInput label="Certificate Number" {...input('certificateNumber')} />
    </SimpleGrid>
  );
}

export const cmeScreen = defineAddFormTableScreen<CmeValues, CmeRow>({
  noun: 'CME record',
  addLabel: 'Add CME Record',
  listTitle: 'Your CME Records',
  empty: {
    activityTitle: '',
    providerName: '',
    category: '',
    creditHours: '',
    completionDate: '',
    certificateNumber: '',
  },
  Fields: CmeFields,
  columns: [
    { header: 'Activity Title', render: (row) => row.activityTitle },
    { header: 'Provider Name', render: (row) => row.providerName },
    { header: 'Category', render: (row) => orDash(row.category) },
    { header: 'Credit Hours', render: (row) => orDash(row.creditHours) },
    { header: 'Completion Date', render: (row) => dateCell(row.completionDate) },
    { header: 'Certificate Number', render: (row) => orDash(row.certificateNumber) },
  ],
  rowName: (row) => row.activityTitle,
});
