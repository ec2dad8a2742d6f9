/**
 * One malpractice insurance card (spec §3 malpractice_insurance): company, policy number, coverage
 * amount (free text), effective and expiration dates. No field is required (spec §5). A policy saved
 * before its effective date is named in a notice (issue 51 item 3).
 */
import { SimpleGrid, TextInput } from '@mantine/core';
import {
  POLICY_STARTS_LATER_TITLE,
  policyStartsLaterNotice,
} from '../../../../domain/sections/malpractice-insurance.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';

interface MalpracticeInsuranceValues {
  [field: string]: string;
  insuranceCompany: string;
  policyNumber: string;
  coverageAmount: string;
  effectiveDate: string;
  expirationDate: string;
}

function MalpracticeInsuranceFields({ input }: FieldsProps<MalpracticeInsuranceValues>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Insurance Company" {...input('insuranceCompany')} />
      <TextInput label="Policy Number" {...input('policyNumber')} />
      <TextInput
        label="Coverage Amount"
        description="Per claim / aggregate, e.g. $1,000,000 / $3,000,000"
        {...input('coverageAmount')}
      />
      <TextInput label="Effective Date" type="date" {...input('effectiveDate')} />
      <TextInput label="Expiration Date" type="date" {...input('expirationDate')} />
    </SimpleGrid>
  );
}

export const malpracticeInsuranceScreen = defineRepeatableScreen<MalpracticeInsuranceValues>({
  noun: 'Policy',
  empty: {
    insuranceCompany: '',
    policyNumber: '',
    coverageAmount: '',
    effectiveDate: '',
    expirationDate: '',
  },
  // Issue 51 item 3: a renewal saved before it starts leaves no coverage in force in the meantime.
  savedNotices: {
    title: POLICY_STARTS_LATER_TITLE,
    of: (cards, today) => [
      ...new Set(cards.map((card) => policyStartsLaterNotice(card, today)).filter((n) => n !== null)),
    ],
  },
  Fields: MalpracticeInsuranceFields,
});
