/**
 * Personal information fields (spec §2 "Personal information screen", §3 personal_information, §5), in
 * the spec's order: provider type (13 options; 'Custom Entry' reveals a free-text field whose text is
 * what is stored), gender, SSN (mask XXX-XX-XXXX), date of birth, mobile phone, NPI (non-blocking
 * check-digit warning), DEA (format, check digit and second-letter warnings; issue 15; judged as final
 * when the field is left, issue 28), CAQH ID, Medicaid, Medicare, address, driver's license.
 * No field is required and no format is enforced (spec §5).
 */
import { Fieldset, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FocusEvent, useState } from 'react';
import { type CheckMode, deaWarnings, npiWarning } from '../../../../domain/sections/identifier-checks.ts';
import {
  CUSTOM_PROVIDER_TYPE,
  genderLabel,
  genders,
  isPredefinedProviderType,
  providerTypeOptions,
} from '../../../../domain/sections/personal-information.ts';
import { useSession } from '../../../app/session.ts';
import { toFormValues } from '../../../forms/zod-form.ts';
import { badgeColor } from '../../../theme.ts';
import { formatSsn } from '../input-formats.ts';
import type { FieldsProps, SingleFormScreen } from '../screen-types.ts';
import type { PersonalInformationDto } from '../sections-api.ts';

/** The form's values: the schema's fields, with the provider type split into the choice and the custom text. */
export interface PersonalInformationValues {
  [field: string]: string;
  providerTypeChoice: string;
  customProviderType: string;
  gender: string;
  ssn: string;
  dateOfBirth: string;
  mobilePhone: string;
  npiNumber: string;
  deaNumber: string;
  caqhId: string;
  medicaidNumber: string;
  medicareNumber: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
  driverLicenseNumber: string;
  driverLicenseState: string;
  driverLicenseExpiration: string;
}

const empty: PersonalInformationValues = {
  providerTypeChoice: '',
  customProviderType: '',
  gender: '',
  ssn: '',
  dateOfBirth: '',
  mobilePhone: '',
  npiNumber: '',
  deaNumber: '',
  caqhId: '',
  medicaidNumber: '',
  medicareNumber: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  zipCode: '',
  driverLicenseNumber: '',
  driverLicenseState: '',
  driverLicenseExpiration: '',
};

const CUSTOM_PROVIDER_TYPE_REQUIRED = 'Enter the provider type, or choose one from the list';

const providerTypeData = [
  { value: '', label: 'Select provider type' },
  ...providerTypeOptions.map((value) => ({ value, label: value })),
];
const genderData = [
  { value: '', label: 'Select gender' },
  ...genders.map((value) => ({ value, label: genderLabel[value] })),
];

/** A non-blocking warning under an identifier field: announced politely, not an error. */
function IdentifierWarning({ text }: { text: string }) {
  return (
    <Text component="span" size="xs" c={badgeColor.orange} role="status">
      {text}
    </Text>
  );
}

/** The identifier fields whose warnings are judged as final once left (issue 28). */
type IdentifierField = 'npiNumber' | 'deaNumber';
const identifierFields: readonly IdentifierField[] = ['npiNumber', 'deaNumber'];

function PersonalInformationFields({ input, values }: FieldsProps<PersonalInformationValues>) {
  const customType = values.providerTypeChoice === CUSTOM_PROVIDER_TYPE;
  const ssn = input('ssn');
  // Issue 15: advisory checks as the value is typed; they never stop a save (spec §5). Issue 28: once
  // the field is left (or holds a saved value) the value is judged as final, so a number too short
  // shows its warning then, not only in the review.
  const [left, setLeft] = useState<ReadonlySet<IdentifierField>>(
    () => new Set(identifierFields.filter((name) => values[name].trim() !== '')),
  );
  const modeOf = (name: IdentifierField): CheckMode => (left.has(name) ? 'final' : 'typing');
  const leaving = (name: IdentifierField) => {
    const props = input(name);
    return {
      ...props,
      onBlur: (event: FocusEvent<HTMLInputElement>) => {
        props.onBlur?.(event);
        if (!left.has(name)) setLeft(new Set([...left, name]));
      },
    };
  };
  const npi = npiWarning(values.npiNumber, modeOf('npiNumber'));
  const lastName = useSession().data?.profile?.lastName;
  const dea = deaWarnings(values.deaNumber, lastName, modeOf('deaNumber'));
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect label="Provider Type" data={providerTypeData} {...input('providerTypeChoice')} />
        {customType && (
          <TextInput
            label="Custom Provider Type"
            description="Your provider type as it should appear on the application"
            required
            {...input('customProviderType')}
          />
        )}
        <NativeSelect label="Gender" data={genderData} {...input('gender')} />
        <TextInput
          label="SSN"
          placeholder="XXX-XX-XXXX"
          inputMode="numeric"
          autoComplete="off"
          {...ssn}
          onChange={(event) => ssn.onChange(formatSsn(event.currentTarget.value))}
        />
        <TextInput label="Date of Birth" type="date" autoComplete="bday" {...input('dateOfBirth')} />
        <TextInput
          label="Mobile Phone"
          type="tel"
          placeholder="(XXX) XXX-XXXX"
          autoComplete="tel"
          {...input('mobilePhone')}
        />
        <TextInput
          label="NPI Number"
          placeholder="10-digit NPI number"
          inputMode="numeric"
          description={npi && <IdentifierWarning text={npi} />}
          {...leaving('npiNumber')}
        />
        <TextInput
          label="DEA Number"
          placeholder="2 letters and 7 digits"
          description={dea.length > 0 && <IdentifierWarning text={dea.join(' ')} />}
          {...leaving('deaNumber')}
        />
        <TextInput label="CAQH ID" {...input('caqhId')} />
        <TextInput label="Medicaid Number" {...input('medicaidNumber')} />
        <TextInput label="Medicare Number" {...input('medicareNumber')} />
      </SimpleGrid>
      <Fieldset legend="Address">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Address Line 1" autoComplete="address-line1" {...input('addressLine1')} />
          <TextInput label="Address Line 2" autoComplete="address-line2" {...input('addressLine2')} />
          <TextInput label="City" autoComplete="address-level2" {...input('city')} />
          <TextInput label="State" autoComplete="address-level1" {...input('state')} />
          <TextInput label="ZIP Code" autoComplete="postal-code" {...input('zipCode')} />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Driver's License">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Driver's License Number" {...input('driverLicenseNumber')} />
          <TextInput label="Driver's License State" {...input('driverLicenseState')} />
          <TextInput label="Driver's License Expiration" type="date" {...input('driverLicenseExpiration')} />
        </SimpleGrid>
      </Fieldset>
    </Stack>
  );
}

export const personalInformationScreen: SingleFormScreen<PersonalInformationValues, PersonalInformationDto> =
  {
    toFormValues: (saved) => {
      const values = toFormValues(empty, saved);
      const providerType = saved?.providerType ?? '';
      // A stored type outside the list is a custom entry: select 'Custom Entry' and show the text.
      if (providerType && !isPredefinedProviderType(providerType)) {
        values.providerTypeChoice = CUSTOM_PROVIDER_TYPE;
        values.customProviderType = providerType;
      } else {
        values.providerTypeChoice = providerType;
      }
      return values;
    },
    toInput: ({ providerTypeChoice, customProviderType, ...fields }) => ({
      ...fields,
      providerType: providerTypeChoice === CUSTOM_PROVIDER_TYPE ? customProviderType : providerTypeChoice,
    }),
    toFormErrors: (schemaErrors, values) => {
      const custom = values.providerTypeChoice === CUSTOM_PROVIDER_TYPE;
      const { providerType, ...errors } = schemaErrors;
      if (providerType) errors[custom ? 'customProviderType' : 'providerTypeChoice'] = providerType;
      if (custom && !values.customProviderType.trim())
        errors.customProviderType = CUSTOM_PROVIDER_TYPE_REQUIRED;
      return errors;
    },
    Fields: PersonalInformationFields,
  };
