/**
 * Personal information, the one single-record section (spec §2 "Personal information screen", §3
 * personal_information, §6, §7 "upsert with application_id plus all the fields"): one row per
 * application, upserted on application_id.
 *
 * The SSN is stored only encrypted (`ssn_encrypted`, AES-256-GCM, docs/decisions/005) plus its last
 * four digits (`ssn_last4`) for the masked display. The owner gets the SSN back in plain text (the
 * form shows it); an admin gets `***-**-1234` (spec §6 "SSN is shown masked").
 */

import { eq, sql } from 'drizzle-orm';
import { type PersonalInformationDto, personalInformationDtoSchema } from '../../domain/api/sections.ts';
import {
  maskSsn,
  type PersonalInformation,
  personalInformationSchema,
  personalInformationSection,
  ssnLast4,
} from '../../domain/sections/personal-information.ts';
import { assertSectionEditable } from '../applications/review-lock.ts';
import { confirmOnSave } from '../applications/section-confirmations.ts';
import type { Queryable } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { personalInformation } from '../db/schema/sections.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { SectionSaveAudit } from './section-access.ts';
import { columnValueSchema, fieldColumns, pickFields, rethrowAsInputError } from './section-columns.ts';
import { assertStorable, parseInput } from './section-input.ts';

/** Every field but the SSN maps onto a column of the same name; the SSN is stored encrypted. */
const columns = fieldColumns(personalInformationSchema, personalInformation, ['ssn']);
assertDtoMatchesColumns();
const labels: ReadonlyMap<string, string> = new Map(
  personalInformationSection.fields.map((f) => [f.name, f.label]),
);

/**
 * The API's personal information (domain/api/sections.ts) lists each field's type by hand; the table
 * is the source of truth for what is stored. Checked at start-up: every column-backed field of the
 * DTO has the nullability of its column.
 * @throws Error at start-up when the DTO and the table drifted
 */
function assertDtoMatchesColumns(): void {
  for (const [name, column] of Object.entries(columns)) {
    const field = personalInformationDtoSchema.shape[name as keyof typeof personalInformationDtoSchema.shape];
    if (!field) throw new Error(`Personal information column "${name}" is missing from the API DTO`);
    if (field.safeParse(null).success !== columnValueSchema(column).safeParse(null).success)
      throw new Error(`Personal information field "${name}": the API DTO and the column disagree on null`);
  }
}

type PersonalInformationRow = typeof personalInformation.$inferSelect;

/** Who is looking: the owner sees the SSN, anybody else (an admin) the masked form. */
export type SsnView = 'owner' | 'masked';

function present(row: PersonalInformationRow, cipher: FieldCipher, view: SsnView): PersonalInformationDto {
  let ssn: string | null = null;
  if (row.ssnEncrypted) {
    // An SSN with fewer than four digits has no last four: still shown as present, fully masked.
    ssn = view === 'owner' ? cipher.decrypt(row.ssnEncrypted) : maskSsn(row.ssnLast4) || '***-**-****';
  }
  return {
    ...(pickFields(row, columns) as Omit<PersonalInformation, 'ssn'>),
    ssn,
    id: row.id,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The application's personal information, or null when none was saved yet.
 * @throws Error when the stored SSN cannot be decrypted (its key is no longer configured)
 */
export async function findPersonalInformation(
  db: Queryable,
  cipher: FieldCipher,
  applicationId: string,
  view: SsnView,
): Promise<PersonalInformationDto | null> {
  const [row] = await personalInformationOf(db).execute({ applicationId });
  return row ? present(row, cipher, view) : null;
}

const personalInformationOf = preparedPerHandle((db) =>
  db
    .select()
    .from(personalInformation)
    .where(eq(personalInformation.applicationId, sql.placeholder('applicationId')))
    .prepare('personal_information_of'),
);

/**
 * Validate and upsert the application's personal information (one row per application). Every field
 * is written: a field left empty is stored as null, and an empty SSN clears the stored one.
 * @param body the personal information schema's input (no field required, spec §5)
 * @param audit the owner's save audited in its transaction (issue 51 item 5; section-access.ts)
 * @returns the saved record as its owner sees it
 * @throws AppError validation_failed (400) with `issues[].path` like `['dateOfBirth']`
 */
export async function upsertPersonalInformation(
  db: Queryable,
  cipher: FieldCipher,
  applicationId: string,
  body: unknown,
  audit?: SectionSaveAudit,
): Promise<PersonalInformationDto> {
  const input = parseInput(personalInformationSchema, body, labels);
  assertStorable([input], columns, labels);
  const values = {
    ...(pickFields(input, columns) as Omit<PersonalInformation, 'ssn'>),
    ssnEncrypted: input.ssn ? cipher.encrypt(input.ssn) : null,
    ssnLast4: ssnLast4(input.ssn),
  };
  const [row] = await db
    .transaction(async (tx) => {
      // A completed application is locked except the sections of an open information request (issue 13).
      await assertSectionEditable(tx, applicationId, 'personalInformation');
      // Issue 29 item 6: a save confirms a copied section.
      await confirmOnSave(tx, applicationId, 'personalInformation');
      const saved = await tx
        .insert(personalInformation)
        .values({ ...values, applicationId })
        .onConflictDoUpdate({
          target: personalInformation.applicationId,
          set: { ...values, updatedAt: sql`now()` },
        })
        .returning();
      await audit?.(tx, saved.length);
      return saved;
    })
    .catch(rethrowAsInputError);
  return present(row!, cipher, 'owner');
}
