/**
 * Hospital Affiliations (issue 31 item 1; CAQH ProView "Hospital Affiliations", the state uniform
 * applications' hospital privileges section, NCQA CR 3 and The Joint Commission MS.06 for privileges).
 * Repeatable cards, 'Add Affiliation'.
 *
 * Each card is a facility where the provider holds privileges (status active, courtesy or provisional,
 * then the facility name is required), or, with status 'none' (no admitting privileges), the admitting
 * arrangement: a covering physician or a hospitalist group, named (both then required). The end date,
 * when given, is when the privileges end: the admin 'Expiring' tab lists it (decision 023).
 */
import { z } from 'zod';
import {
  defineListSection,
  enumWithDefault,
  joinSummary,
  optionalDate,
  optionalEnum,
  optionalText,
  refineDateOrder,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';

export const privilegeStatuses = ['active', 'courtesy', 'provisional', 'none'] as const;
export type PrivilegeStatus = (typeof privilegeStatuses)[number];
export const privilegeStatusLabel: Record<PrivilegeStatus, string> = {
  active: 'Active',
  courtesy: 'Courtesy',
  provisional: 'Provisional',
  none: 'None (no admitting privileges)',
};

export const admittingArrangements = ['covering_physician', 'hospitalist_group'] as const;
export type AdmittingArrangement = (typeof admittingArrangements)[number];
export const admittingArrangementLabel: Record<AdmittingArrangement, string> = {
  covering_physician: 'Covering physician',
  hospitalist_group: 'Hospitalist group',
};

export const hospitalAffiliationSchema = z
  .object({
    privilegeStatus: enumWithDefault(privilegeStatuses, 'active', 'Choose a privilege status from the list'),
    facilityName: optionalText(TEXT_MAX.name),
    city: optionalText(TEXT_MAX.name),
    state: optionalText(TEXT_MAX.code),
    department: optionalText(TEXT_MAX.name),
    startDate: optionalDate(),
    /** When the privileges end (or ended); listed by the 'Expiring' tab. */
    endDate: optionalDate(),
    /** With no admitting privileges: who admits the provider's patients. */
    admittingArrangement: optionalEnum(
      admittingArrangements,
      'Choose an admitting arrangement from the list',
    ),
    /** The covering physician's or the hospitalist group's name. */
    arrangementName: optionalText(TEXT_MAX.name),
  })
  .superRefine((row, ctx) => {
    if (row.privilegeStatus !== 'none') {
      if (!row.facilityName) {
        ctx.addIssue({ code: 'custom', path: ['facilityName'], message: 'Facility name is required' });
      }
    } else {
      if (!row.admittingArrangement) {
        ctx.addIssue({
          code: 'custom',
          path: ['admittingArrangement'],
          message: 'Without admitting privileges, choose who admits your patients',
        });
      }
      if (!row.arrangementName) {
        ctx.addIssue({
          code: 'custom',
          path: ['arrangementName'],
          message: 'Name the covering physician or hospitalist group',
        });
      }
    }
    refineDateOrder(ctx, row.startDate, row.endDate, 'endDate', 'The end date is before the start date');
  });
export type HospitalAffiliationInput = z.input<typeof hospitalAffiliationSchema>;
export type HospitalAffiliation = z.output<typeof hospitalAffiliationSchema>;

export const hospitalAffiliationsSection = defineListSection({
  key: 'hospitalAffiliations',
  ...sectionCatalog.hospitalAffiliations,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Affiliation',
  schema: hospitalAffiliationSchema,
  fields: [
    { name: 'privilegeStatus', label: 'Privilege Status' },
    { name: 'facilityName', label: 'Facility Name' },
    { name: 'city', label: 'City' },
    { name: 'state', label: 'State' },
    { name: 'department', label: 'Department' },
    { name: 'startDate', label: 'Start Date' },
    { name: 'endDate', label: 'End Date' },
    { name: 'admittingArrangement', label: 'Admitting Arrangement' },
    { name: 'arrangementName', label: 'Covering Physician or Group' },
  ],
  summarize: (row) =>
    row.privilegeStatus === 'none'
      ? joinSummary(
          'No admitting privileges',
          row.admittingArrangement && admittingArrangementLabel[row.admittingArrangement],
          row.arrangementName,
        )
      : joinSummary(
          row.facilityName,
          row.city && row.state ? `${row.city}, ${row.state}` : (row.city ?? row.state),
          privilegeStatusLabel[row.privilegeStatus],
          row.endDate && `ends ${row.endDate}`,
        ),
  messages: {
    loadError: 'Failed to load hospital affiliations',
    saveError: 'Failed to save hospital affiliations',
    saveSuccess: 'Hospital affiliations saved successfully',
  },
});
