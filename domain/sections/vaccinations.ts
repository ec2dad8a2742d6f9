/** Section 6, Vaccinations (spec §3 vaccinations). Repeatable cards, 'Add Vaccination'. No field is required (spec §5). */
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

export const vaccineNames = [
  'covid-19',
  'influenza',
  'hepatitis-b',
  'mmr',
  'tdap',
  'varicella',
  'meningococcal',
  'other',
] as const;
export type VaccineName = (typeof vaccineNames)[number];
export const vaccineNameLabel: Record<VaccineName, string> = {
  'covid-19': 'COVID-19',
  influenza: 'Influenza',
  'hepatitis-b': 'Hepatitis B',
  mmr: 'MMR',
  tdap: 'Tdap',
  varicella: 'Varicella',
  meningococcal: 'Meningococcal',
  other: 'Other',
};

export const vaccinationSchema = z.object({
  vaccineName: optionalEnum(vaccineNames, 'Choose a vaccine from the list'),
  administrationDate: optionalDate(),
  expirationDate: optionalDate(),
  lotNumber: optionalText(TEXT_MAX.code),
  administeringProvider: optionalText(TEXT_MAX.name),
});
export type VaccinationInput = z.input<typeof vaccinationSchema>;
export type Vaccination = z.output<typeof vaccinationSchema>;

export const vaccinationsSection = defineListSection({
  key: 'vaccinations',
  ...sectionCatalog.vaccinations,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Vaccination',
  schema: vaccinationSchema,
  fields: [
    { name: 'vaccineName', label: 'Vaccine Name' },
    { name: 'administrationDate', label: 'Administration Date' },
    { name: 'expirationDate', label: 'Expiration Date' },
    { name: 'lotNumber', label: 'Lot Number' },
    { name: 'administeringProvider', label: 'Administering Provider' },
  ],
  summarize: (row) =>
    joinSummary(
      row.vaccineName && vaccineNameLabel[row.vaccineName],
      row.administrationDate,
      row.administeringProvider,
    ),
  messages: {
    loadError: 'Failed to load vaccination records',
    saveError: 'Failed to save vaccination records',
    saveSuccess: 'Vaccination records saved successfully',
  },
});
