/**
 * One malpractice claim card (issue 31 item 1; domain/sections/malpractice-claims.ts): incident and
 * claim dates (one of the two required), status (required), the amount paid on the provider's behalf
 * in US dollars, the insurer and a description. The section's none answer ('No claims in the last 10
 * years') is the page's checkbox above the cards (repeatable-cards-page.tsx), not a card field.
 */
import { NativeSelect, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import {
  CLAIM_AMOUNT_MAX,
  CLAIMS_HISTORY_YEARS,
  claimStatuses,
  claimStatusLabel,
} from '../../../../domain/sections/malpractice-claims.ts';
import { TEXT_MAX } from '../../../../domain/sections/section.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface MalpracticeClaimValues {
  [field: string]: string | number | boolean;
  noClaims: boolean;
  incidentDate: string;
  claimDate: string;
  status: string;
  /** '' when blank (sent as null), else US dollars. */
  amountPaid: string | number;
  insurer: string;
  description: string;
}

const statusData = [
  { value: '', label: 'Select status' },
  ...claimStatuses.map((value) => ({ value, label: claimStatusLabel[value] })),
];

function MalpracticeClaimFields({ input }: FieldsProps<MalpracticeClaimValues>) {
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Incident Date"
          type="date"
          description="When the event the claim is about happened"
          {...input('incidentDate')}
        />
        <TextInput
          label="Claim Date"
          type="date"
          description={`When the claim was made (last ${CLAIMS_HISTORY_YEARS} years)`}
          {...input('claimDate')}
        />
        <NativeSelect label="Status" required data={statusData} {...input('status')} />
        <NumberInput
          label="Amount Paid (USD)"
          description="Paid on your behalf; leave empty if nothing was paid"
          prefix="$"
          thousandSeparator=","
          decimalScale={2}
          min={0}
          max={CLAIM_AMOUNT_MAX}
          // Keep what was typed; the section schema's message says what is allowed (as CME hours do).
          clampBehavior="none"
          {...input('amountPaid')}
        />
        <TextInput label="Insurer" {...input('insurer')} />
      </SimpleGrid>
      <Textarea
        label="Description"
        description="What the claim alleged and how it was resolved"
        autosize
        minRows={3}
        maxLength={TEXT_MAX.long}
        {...input('description')}
      />
    </Stack>
  );
}

export const malpracticeClaimsScreen = defineRepeatableScreen<MalpracticeClaimValues>({
  noun: 'Claim',
  empty: {
    noClaims: false,
    incidentDate: '',
    claimDate: '',
    status: '',
    amountPaid: '',
    insurer: '',
    description: '',
  },
  Fields: MalpracticeClaimFields,
});
