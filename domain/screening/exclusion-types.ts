/**
 * The types of the exclusion list formats (issue 30 items 1-3), apart from the registry
 * (exclusion-formats.ts) so that the per-source modules can name them without an import cycle.
 */

/** The screening sources (issue 30 item 1). */
export type ExclusionSourceId = 'oig_leie' | 'sam' | 'ny_omig' | 'pa_medicheck';

/** A full list replaces the source's list; additions and reinstatements change it (issue 30 item 2). */
export type ExclusionFileKind = 'full' | 'additions' | 'reinstatements';

export interface ExclusionFormat {
  source: ExclusionSourceId;
  kind: ExclusionFileKind;
  /** Shown with the import's row count: "OIG LEIE monthly reinstatements (YYMMREIN.csv)". */
  label: string;
  /** The header row, in order, as the publisher writes it. */
  columns: readonly string[];
}

/** One list row as stored: every field trimmed text ('' when none), dates 'YYYY-MM-DD' or null. */
export interface ExclusionEntryInput {
  lastName: string;
  firstName: string;
  middleName: string;
  businessName: string;
  /** Ten digits; null when the list has none (the LEIE writes `0000000000`). */
  npi: string | null;
  dob: string | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  licenseNumber: string;
  providerType: string;
  exclusionType: string;
  exclusionDate: string | null;
  /**
   * When the exclusion ends: LEIE `REINDATE`, SAM.gov `Termination Date` (which may be in the future:
   * the exclusion runs until then), a state list's equivalent. Null: no end date.
   */
  reinstatementDate: string | null;
  waiverDate: string | null;
  waiverState: string;
  /** A person (screening matches people); organizations' rows are kept for the LEIE and states. */
  isIndividual: boolean;
  /** domain/screening/matching.ts `nameKey(last, first)`; '' when either is missing. */
  nameKey: string;
  /**
   * The row's identity across files, so a reinstatement finds the exclusion it ends:
   * source|last|first|middle|business|npi|dob|exclusionType|exclusionDate, each folded (accents,
   * case, spaces and punctuation removed). The reinstatement date is not part of it.
   */
  entryKey: string;
  /** The raw fields by header column (trimmed), for the side-by-side view. */
  fields: Record<string, string>;
}
