/**
 * Queries and mutations of the section screens (spec §7 section data calls; API in
 * server/sections/*.routes.ts). Every query is keyed `['section', applicationId, sectionKey]`; every write
 * invalidates `['applications']` so the dashboard's green checks and progress follow (spec §4).
 *
 * Section data is PHI: it is kept in the query cache only while its screen is open (`gcTime: 0`), and
 * each visit reads it fresh, so a form never starts from a stale copy.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  personalInformationDtoSchema,
  personalInformationResponseSchema,
  SectionRowsResponse,
} from '../../../domain/api/sections.ts';
import type { TaxonomyResponse } from '../../../domain/api/taxonomy.ts';
import {
  type AddFormTableSectionKey,
  type ListSectionKey,
  type RepeatableSectionKey,
  type SectionKey,
  sectionByKey,
} from '../../../domain/sections/registry.ts';
import { api } from '../../api.ts';
import type { ApiRow } from './screen-types.ts';

/** The dashboard's applications query (web/features/dashboard); features do not import each other. */
const applicationsQueryKey = ['applications'] as const;

export const sectionQueryKey = (applicationId: string, key: SectionKey) =>
  ['section', applicationId, key] as const;

/** `/api/applications/{id}/sections/{slug}` */
function sectionUrl(applicationId: string, key: SectionKey): string {
  return `/api/applications/${encodeURIComponent(applicationId)}/sections/${sectionByKey[key].slug}`;
}

/** Personal information as the API returns it to its owner, SSN in plain text (domain/api/sections.ts). */
export type PersonalInformationDto = z.infer<typeof personalInformationDtoSchema>;
type PersonalInformationResponse = z.infer<typeof personalInformationResponseSchema>;

/** GET personal information: the saved record, or null before the first save. */
export function usePersonalInformation(applicationId: string) {
  return useQuery({
    queryKey: sectionQueryKey(applicationId, 'personalInformation'),
    gcTime: 0,
    queryFn: async () =>
      (await api<PersonalInformationResponse>('GET', sectionUrl(applicationId, 'personalInformation')))
        .personalInformation,
  });
}

/** PUT personal information (upsert; body: the personal information schema's input). */
export function useSavePersonalInformation(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) =>
      api<PersonalInformationDto>('PUT', sectionUrl(applicationId, 'personalInformation'), body),
    onSuccess: (saved) => {
      queryClient.setQueryData(sectionQueryKey(applicationId, 'personalInformation'), saved);
      return queryClient.invalidateQueries({ queryKey: applicationsQueryKey });
    },
  });
}

/** GET the rows of a list section, in the section's display order. */
export function useSectionRows(applicationId: string, key: ListSectionKey) {
  return useQuery({
    queryKey: sectionQueryKey(applicationId, key),
    gcTime: 0,
    queryFn: async () => (await api<SectionRowsResponse>('GET', sectionUrl(applicationId, key))).rows,
  });
}

/** PUT every card of a repeatable-card section at once (atomic on the server): `{ rows: [{ id?, ...fields }] }`. */
export function useSaveCards(applicationId: string, key: RepeatableSectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rows: Record<string, unknown>[]) =>
      (await api<SectionRowsResponse>('PUT', sectionUrl(applicationId, key), { rows })).rows,
    onSuccess: (rows) => {
      queryClient.setQueryData(sectionQueryKey(applicationId, key), rows);
      return queryClient.invalidateQueries({ queryKey: applicationsQueryKey });
    },
  });
}

/** POST one row to an add-form-plus-table section; the list is reloaded afterwards (spec §4). */
export function useAddRow(applicationId: string, key: AddFormTableSectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (row: unknown) => api<ApiRow>('POST', sectionUrl(applicationId, key), row),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sectionQueryKey(applicationId, key) }),
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
      ]),
  });
}

/**
 * DELETE one row of a list section; the section's rows are reloaded afterwards, whether the delete
 * succeeded or not (spec §4). Card screens merge the reloaded rows into their cards
 * (repeatable-cards-page.tsx), so the other cards' unsaved edits stay.
 */
export function useDeleteRow(applicationId: string, key: ListSectionKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rowId: string) =>
      api<void>('DELETE', `${sectionUrl(applicationId, key)}/${encodeURIComponent(rowId)}`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sectionQueryKey(applicationId, key) }),
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
      ]),
  });
}

/**
 * GET /api/taxonomy: the NUCC taxonomy code set the Specialties screen searches (issue 31). Public
 * reference data that changes only with a release: read once per page load and kept (no PHI).
 */
export function useTaxonomy() {
  return useQuery({
    queryKey: ['taxonomy'],
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    queryFn: () => api<TaxonomyResponse>('GET', '/api/taxonomy'),
  });
}
