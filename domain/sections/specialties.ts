/**
 * Specialties (issue 31 item 1; CAQH ProView "Specialties", the state uniform applications' specialty
 * questions, NCQA CR 3 board certification). Repeatable cards, 'Add Specialty'.
 *
 * A specialty is a NUCC Health Care Provider Taxonomy code (taxonomy/nucc-taxonomy.ts, the code set
 * shipped as data). The provider chooses the code; `classification` and `specialization` are the code
 * set's names for it, written by the server from the code set whatever the client sends (the screen
 * shows them from the same file). Exactly one specialty is 'primary' when any are listed (issue 51
 * item 4); the others are 'secondary'. A board certification is linked by choosing one of the
 * application's board certifications (its row id; the server checks it belongs to the same
 * application and is of kind 'board', issue 51 item 4).
 */
import { z } from 'zod';
import {
  defineListSection,
  enumWithDefault,
  joinSummary,
  optionalText,
  type RowsIssue,
  TEXT_MAX,
} from './section.ts';
import { sectionCatalog } from './section-catalog.ts';
import { TAXONOMY_CODE_PATTERN } from './taxonomy/taxonomy-code.ts';

export const specialtyRanks = ['primary', 'secondary'] as const;
export type SpecialtyRank = (typeof specialtyRanks)[number];
export const specialtyRankLabel: Record<SpecialtyRank, string> = {
  primary: 'Primary',
  secondary: 'Secondary',
};

const TAXONOMY_REQUIRED = 'Choose a specialty from the list';

export const specialtySchema = z.object({
  specialtyRank: enumWithDefault(specialtyRanks, 'primary', 'Choose primary or secondary'),
  /** NUCC taxonomy code, 10 characters ending in X (e.g. '207RC0000X'); must be in the shipped code set. */
  taxonomyCode: z
    .string({ error: TAXONOMY_REQUIRED })
    .trim()
    .toUpperCase()
    // abort: a blank code gets one message, not this one and the pattern's too.
    .min(1, { error: TAXONOMY_REQUIRED, abort: true })
    .regex(TAXONOMY_CODE_PATTERN, 'Choose a specialty from the list'),
  /** The code set's classification of the code (level II), e.g. 'Internal Medicine'; set by the server. */
  classification: optionalText(TEXT_MAX.name),
  /** The code set's specialization (level III), e.g. 'Cardiovascular Disease'; null for a classification code. */
  specialization: optionalText(TEXT_MAX.name),
  /** Row id of this application's certification that certifies this specialty, or null. */
  boardCertificationId: z
    .union([z.uuid({ error: 'Choose a certification from the list' }), z.literal('')], {
      error: 'Choose a certification from the list',
    })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type SpecialtyInput = z.input<typeof specialtySchema>;
export type Specialty = z.output<typeof specialtySchema>;

/** The message when more than one specialty is primary (issue 31: one primary specialty). */
export const ONE_PRIMARY_SPECIALTY = 'Only one specialty can be primary. Make the others secondary.';

/** The message when specialties are listed and none is primary (issue 51 item 4). */
export const PRIMARY_SPECIALTY_REQUIRED = 'Mark exactly one specialty as primary.';

/**
 * Exactly one primary specialty when any are listed (issue 31: at most one; issue 51 item 4: at
 * least one). No rows is no issue (the section is then incomplete, spec §4). Two primaries: the issue
 * points at the second one; none: at the first row. A row without a rank counts as primary (the
 * schema's default).
 * @returns the issue on `specialtyRank`, or null
 */
export function specialtiesRowsIssue(rows: readonly Record<string, unknown>[]): RowsIssue | null {
  const primaries = rows.flatMap((row, index) =>
    (row.specialtyRank ?? 'primary') === 'primary' ? [index] : [],
  );
  if (rows.length > 0 && primaries.length === 0) {
    return { message: PRIMARY_SPECIALTY_REQUIRED, index: 0, field: 'specialtyRank' };
  }
  if (primaries.length <= 1) return null;
  return { message: ONE_PRIMARY_SPECIALTY, index: primaries[1]!, field: 'specialtyRank' };
}

/** How a specialty is named to a person: 'Internal Medicine, Cardiovascular Disease (207RC0000X)'. */
export function specialtyName(row: {
  taxonomyCode: string | null;
  classification: string | null;
  specialization: string | null;
}): string {
  const name = joinSummary(row.classification, row.specialization).replace(' · ', ', ');
  return name ? `${name} (${row.taxonomyCode ?? ''})` : (row.taxonomyCode ?? '');
}

export const specialtiesSection = defineListSection({
  key: 'specialties',
  ...sectionCatalog.specialties,
  kind: 'list',
  layout: 'repeatable-cards',
  orderBy: 'position',
  addLabel: 'Add Specialty',
  schema: specialtySchema,
  fields: [
    { name: 'specialtyRank', label: 'Primary or Secondary' },
    { name: 'taxonomyCode', label: 'Taxonomy Code' },
    { name: 'classification', label: 'Classification' },
    { name: 'specialization', label: 'Specialization' },
    { name: 'boardCertificationId', label: 'Board Certification' },
  ],
  rowsRule: specialtiesRowsIssue,
  summarize: (row) => joinSummary(specialtyRankLabel[row.specialtyRank], specialtyName(row)),
  messages: {
    loadError: 'Failed to load specialties',
    saveError: 'Failed to save specialties',
    saveSuccess: 'Specialties saved successfully',
  },
});
