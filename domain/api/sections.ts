/**
 * API contract of the section screens (spec §2, §3, §7 section data calls): what is the same for every
 * section. Validated and serialised by server/sections/*.routes.ts; typed on the web by
 * web/features/sections/sections-api.ts.
 *
 * - Personal information, the single-record section: GET `{ personalInformation: Dto | null }`, PUT -> Dto.
 * - List sections: GET/PUT `{ rows: Row[] }`, POST -> Row, DELETE -> 204. A row is the section's
 *   fields (domain/sections/<section>.ts; empty optional fields null, dates 'YYYY-MM-DD') plus `id` and
 *   `createdAt`. The server derives each section's exact row schema from its table
 *   (server/sections/section-columns.ts) on `sectionRowBaseShape`; the web reads rows as `SectionRowDto`.
 * Request bodies are the section schemas themselves (domain/sections/*.ts).
 */
import { z } from 'zod';
import { genders, type PersonalInformation } from '../sections/personal-information.ts';
import { listSections } from '../sections/registry.ts';

const text = z.string().nullable();
/** ISO calendar date `YYYY-MM-DD`, as stored in a PostgreSQL `date` column. */
const date = z.iso.date().nullable();

/**
 * Personal information as the API returns it (spec §3 personal_information): the 18 fields of
 * `personalInformationSchema`, null when empty, plus `id` and `updatedAt` (ISO 8601, UTC). `ssn` is
 * plain text for the owner, `***-**-1234` for an admin (spec §6), null when none is stored. Strict, so
 * a presenter that leaks a column (`applicationId`, `ssnEncrypted`) fails loudly instead of sending it.
 */
export const personalInformationDtoSchema = z.strictObject({
  id: z.uuid(),
  providerType: text,
  gender: z.enum(genders).nullable(),
  ssn: text,
  dateOfBirth: date,
  mobilePhone: text,
  npiNumber: text,
  deaNumber: text,
  caqhId: text,
  medicaidNumber: text,
  medicareNumber: text,
  addressLine1: text,
  addressLine2: text,
  city: text,
  state: text,
  zipCode: text,
  driverLicenseNumber: text,
  driverLicenseState: text,
  driverLicenseExpiration: date,
  updatedAt: z.iso.datetime(),
});
export type PersonalInformationDto = z.infer<typeof personalInformationDtoSchema>;

/** Compile-time guard: the DTO is exactly the section's parsed fields plus `id` and `updatedAt`. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const dtoMatchesSection: Same<
  PersonalInformationDto,
  PersonalInformation & { id: string; updatedAt: string }
> = true;
void dtoMatchesSection;

/** Path parameters of .../sections/personal-information. */
export const personalInformationParamsSchema = z.object({ applicationId: z.string() });

/** GET .../sections/personal-information: null before the first save. */
export const personalInformationResponseSchema = z.object({
  personalInformation: personalInformationDtoSchema.nullable(),
});
export type PersonalInformationResponse = z.infer<typeof personalInformationResponseSchema>;

/** What every stored list-section row carries besides its fields. */
export const sectionRowBaseShape = {
  id: z.uuid(),
  /** ISO 8601, UTC. */
  createdAt: z.iso.datetime(),
};

/** A row of any list section, as the web reads it: `id`, `createdAt` and the section's fields. */
export const sectionRowSchema = z.looseObject(sectionRowBaseShape);
export type SectionRowDto = z.infer<typeof sectionRowSchema>;

/** `{ rows: Row[] }`, the answer of GET and PUT of a list section, for a row schema. */
export function sectionRowsResponseSchema<Row extends z.ZodType>(row: Row) {
  return z.object({ rows: z.array(row) });
}
/** `{ rows }` of any list section, as the web reads it. */
export type SectionRowsResponse = z.infer<
  ReturnType<typeof sectionRowsResponseSchema<typeof sectionRowSchema>>
>;

/** Path parameters of .../sections/:slug (`slug`: the section's route slug, e.g. `professional-licenses`). */
export const listSectionParamsSchema = z.object({
  applicationId: z.string(),
  slug: z.string().describe(
    `Section slug: ${listSections
      .filter((s) => s.layout !== 'documents')
      .map((s) => s.slug)
      .join(', ')}`,
  ),
});
/** Path parameters of DELETE .../sections/:slug/:rowId. */
export const listSectionRowParamsSchema = listSectionParamsSchema.extend({ rowId: z.string() });
