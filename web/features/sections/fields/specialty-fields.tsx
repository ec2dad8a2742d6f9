/**
 * One specialty card (issue 31 item 1; domain/sections/specialties.ts): primary or secondary, the NUCC
 * taxonomy code chosen by searching the code set, and the board certification that certifies it.
 *
 * - 'Specialty' searches the code set from GET /api/taxonomy (read once, kept for the page's life)
 *   with the domain's `searchTaxonomy`: by name ('cardio') or by code ('207RC'), at most 50 options
 *   shown. Choosing one sets `taxonomyCode` and, for display, `classification` and `specialization`
 *   (the server writes those two from its own copy of the code set whatever is sent).
 * - The chosen code's grouping, classification and specialization show read-only below it.
 * - 'Board Certification' lists this application's Certifications rows of type 'Board Certification'
 *   ("name — certifying body"; issue 51 item 4); without any, it is off and says where to add one.
 * - A new card is 'Secondary' once a card is primary; exactly one card is primary when any are
 *   listed (the section's rowsRule, issue 51 item 4, shown on the card it names).
 */
import { Group, Radio, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { specialtyRankLabel, specialtyRanks } from '../../../../domain/sections/specialties.ts';
import {
  type SearchableTaxonomyEntry,
  searchableTaxonomy,
  searchTaxonomy,
  type TaxonomyEntry,
  taxonomyLabel,
} from '../../../../domain/sections/taxonomy/nucc-taxonomy.ts';
import { defineRepeatableScreen, type FieldsProps } from '../screen-types.ts';
import { useSectionRows, useTaxonomy } from '../sections-api.ts';

interface SpecialtyValues {
  [field: string]: string;
  /** 'primary' | 'secondary'. */
  specialtyRank: string;
  /** NUCC code, e.g. '207RC0000X'; '' until one is chosen. */
  taxonomyCode: string;
  classification: string;
  specialization: string;
  /** Row id of one of this application's certifications, or ''. */
  boardCertificationId: string;
}

/** Most options the specialty list shows at once (the search narrows it). */
const SPECIALTY_OPTIONS_SHOWN = 50;

/** The code set prepared for the Select: searchable entries, options and entries by code. */
interface PreparedCodeSet {
  searchable: SearchableTaxonomyEntry[];
  options: { value: string; label: string }[];
  optionByCode: Map<string, { value: string; label: string }>;
  entryByCode: Map<string, TaxonomyEntry>;
}

/** One preparation per loaded code set, shared by every card on the screen. */
const prepared = new WeakMap<readonly TaxonomyEntry[], PreparedCodeSet>();

function prepare(entries: readonly TaxonomyEntry[]): PreparedCodeSet {
  let codeSet = prepared.get(entries);
  if (!codeSet) {
    const options = entries.map((entry) => ({
      value: entry.code,
      label: `${taxonomyLabel(entry)} (${entry.code})`,
    }));
    codeSet = {
      searchable: searchableTaxonomy(entries),
      options,
      optionByCode: new Map(options.map((option) => [option.value, option])),
      entryByCode: new Map(entries.map((entry) => [entry.code, entry])),
    };
    prepared.set(entries, codeSet);
  }
  return codeSet;
}

const rankOptions = specialtyRanks.map((value) => ({ value, label: specialtyRankLabel[value] }));

function SpecialtyFields({ input, values, setValue }: FieldsProps<SpecialtyValues>) {
  const { applicationId = '' } = useParams();
  const taxonomy = useTaxonomy();
  const certifications = useSectionRows(applicationId, 'certifications');
  const codeSet = useMemo(() => (taxonomy.data ? prepare(taxonomy.data.entries) : null), [taxonomy.data]);
  const chosen = codeSet?.entryByCode.get(values.taxonomyCode);
  // Issue 51 item 4: only board certifications certify a specialty (the server refuses the others).
  const certificationOptions = (certifications.data ?? [])
    .filter((row) => row.certificationKind === 'board')
    .map((row) => ({
      value: row.id,
      label: `${String(row.certificationName ?? '')} — ${String(row.certifyingBody ?? '')}`,
    }));
  const specialty = input('taxonomyCode');
  const certification = input('boardCertificationId');

  return (
    <Stack>
      <Radio.Group label="Primary or Secondary" {...input('specialtyRank')}>
        <Group mt="xs">
          {rankOptions.map((option) => (
            <Radio key={option.value} value={option.value} label={option.label} />
          ))}
        </Group>
      </Radio.Group>
      <Select
        label="Specialty"
        withAsterisk
        searchable
        description="Type a name or a NUCC taxonomy code, e.g. cardiology or 207RC"
        placeholder={taxonomy.isPending ? 'Loading specialties...' : 'Search specialties'}
        disabled={!codeSet}
        data={codeSet?.options ?? []}
        limit={SPECIALTY_OPTIONS_SHOWN}
        filter={({ search, limit }) =>
          codeSet
            ? searchTaxonomy(codeSet.searchable, search, limit).flatMap((entry) => {
                const option = codeSet.optionByCode.get(entry.code);
                return option ? [option] : [];
              })
            : []
        }
        nothingFoundMessage="No specialty matches. Try another name or a code."
        onFocus={specialty.onFocus}
        onBlur={specialty.onBlur}
        error={
          specialty.error ??
          (taxonomy.isError
            ? 'The specialty list could not be loaded. Reload the page to try again.'
            : undefined)
        }
        value={values.taxonomyCode || null}
        onChange={(code) => {
          const entry = code ? codeSet?.entryByCode.get(code) : undefined;
          setValue('taxonomyCode', code ?? '');
          setValue('classification', entry?.classification ?? '');
          setValue('specialization', entry?.specialization ?? '');
        }}
      />
      {values.taxonomyCode && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Grouping" readOnly variant="filled" value={chosen?.grouping ?? ''} />
          <TextInput
            label="Classification"
            readOnly
            variant="filled"
            value={chosen?.classification ?? values.classification}
          />
          <TextInput
            label="Specialization"
            readOnly
            variant="filled"
            value={chosen ? chosen.specialization || '—' : values.specialization || '—'}
          />
        </SimpleGrid>
      )}
      <Select
        label="Board Certification"
        clearable
        placeholder={certificationOptions.length > 0 ? 'Choose a certification' : undefined}
        description={
          certificationOptions.length === 0
            ? 'Add your board certifications in the Certifications section to link one here.'
            : 'The certification that certifies this specialty, if any'
        }
        disabled={certificationOptions.length === 0}
        data={certificationOptions}
        onFocus={certification.onFocus}
        onBlur={certification.onBlur}
        error={certification.error}
        value={values.boardCertificationId || null}
        onChange={(id) => setValue('boardCertificationId', id ?? '')}
      />
    </Stack>
  );
}

export const specialtiesScreen = defineRepeatableScreen<SpecialtyValues>({
  noun: 'Specialty',
  empty: {
    specialtyRank: 'primary',
    taxonomyCode: '',
    classification: '',
    specialization: '',
    boardCertificationId: '',
  },
  // One primary specialty (the section's rowsRule): a card added after a primary one is secondary.
  nextEmpty: (cards, empty) =>
    cards.some((card) => card.specialtyRank !== 'secondary')
      ? { ...empty, specialtyRank: 'secondary' }
      : empty,
  Fields: SpecialtyFields,
});
