/**
 * The CapabilityStatement of `GET /fhir/metadata` (FHIR R4 §2.37 capabilities; §3.1.0.10): what the
 * directory API serves, stated from the same lists the routes check (fhir-search.ts), so it cannot
 * drift from them. Security: SMART Backend Services (OAuth 2.0 client credentials, `system/*.read`
 * scopes) with the token endpoint `/oauth/token`. Bulk Data: system-level `$export` (Bulk Data
 * Access IG v2). No profile is claimed in `supportedProfile`: the resources follow the NDH
 * extensions and code systems named in fhir-resources.ts (asserted in fhir-resources.test.ts), but
 * they are not validated against the NDH or US Core profiles as a whole.
 */
import type { CapabilityStatement, CapabilityStatementRestResource } from '@medplum/fhirtypes';
import { type FhirResourceType, fhirResourceTypes } from '../../domain/api-clients.ts';

/** Bulk Data Access IG v2's system-level export operation and the capability it instantiates. */
export const BULK_EXPORT_OPERATION = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export';
export const BULK_DATA_CAPABILITY = 'http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data';

type SearchParam = NonNullable<CapabilityStatementRestResource['searchParam']>[number];

const base = (name: string, type: SearchParam['type'], documentation: string): SearchParam => ({
  name,
  definition: `http://hl7.org/fhir/SearchParameter/${name === '_id' ? 'Resource-id' : name === '_lastUpdated' ? 'Resource-lastUpdated' : name}`,
  type,
  documentation,
});

const common: SearchParam[] = [
  base('_id', 'token', 'The resource id.'),
  base('_lastUpdated', 'date', 'Prefixes eq, ge, gt, le, lt; a date or an instant (to the millisecond).'),
];

const searchParams: Record<FhirResourceType, SearchParam[]> = {
  Practitioner: [
    ...common,
    {
      name: 'identifier',
      definition: 'http://hl7.org/fhir/SearchParameter/Practitioner-identifier',
      type: 'token',
      documentation: 'The NPI: http://hl7.org/fhir/sid/us-npi|<NPI> or <NPI>.',
    },
    {
      name: 'name',
      definition: 'http://hl7.org/fhir/SearchParameter/Practitioner-name',
      type: 'string',
      documentation:
        'Case- and accent-insensitive: the given or family name starts with it, or the full name contains it.',
    },
  ],
  PractitionerRole: [
    ...common,
    {
      name: 'practitioner',
      definition: 'http://hl7.org/fhir/SearchParameter/PractitionerRole-practitioner',
      type: 'reference',
      documentation: 'Practitioner/<id> or <id>.',
    },
  ],
  Location: common,
  Organization: [
    ...common,
    {
      name: 'identifier',
      definition: 'http://hl7.org/fhir/SearchParameter/Organization-identifier',
      type: 'token',
      documentation: 'The group NPI: http://hl7.org/fhir/sid/us-npi|<NPI> or <NPI>.',
    },
  ],
  VerificationResult: [
    ...common,
    {
      name: 'target',
      definition: 'http://hl7.org/fhir/SearchParameter/VerificationResult-target',
      type: 'reference',
      documentation: 'Practitioner/<id> or <id>.',
    },
  ],
};

/**
 * The CapabilityStatement of the API served at `${appUrl}/fhir`, dated `date` (an instant).
 * Interactions: read and search-type on the five types; `_count` (default 50, at most 1000) on every
 * search; the includes listed; paging by the Bundle's next link.
 */
export function capabilityStatement(appUrl: string, date: string): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date,
    publisher: 'Healthcare Provider Credentialing Portal',
    kind: 'instance',
    instantiates: [BULK_DATA_CAPABILITY],
    software: { name: 'Healthcare Provider Credentialing Portal', version: '0.1.0' },
    implementation: {
      description: 'Read-only FHIR R4 directory of credentialed providers',
      url: `${appUrl}/fhir`,
    },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Credentialed providers only. Every read needs a bearer token of POST /oauth/token (OAuth 2.0 client credentials) with the scope system/<Type>.read or system/*.read. Unknown search parameters are refused (400). Search by GET or by POST [type]/_search (form-encoded). JSON only: a client accepting only XML gets 406. SMART configuration: /fhir/.well-known/smart-configuration.',
        security: {
          cors: false,
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'SMART-on-FHIR',
                },
              ],
              text: 'OAuth 2.0 client credentials (SMART Backend Services scopes)',
            },
          ],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${appUrl}/oauth/token` }],
            },
          ],
        },
        resource: fhirResourceTypes.map(
          (type): CapabilityStatementRestResource => ({
            type,
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            versioning: 'no-version',
            readHistory: false,
            updateCreate: false,
            searchParam: searchParams[type],
            ...(type === 'PractitionerRole'
              ? { searchInclude: ['PractitionerRole:practitioner', 'PractitionerRole:location'] }
              : {}),
            ...(type === 'Practitioner' ? { searchRevInclude: ['PractitionerRole:practitioner'] } : {}),
          }),
        ),
        searchParam: [
          { name: '_count', type: 'number', documentation: 'Page size: default 50, at most 1000.' },
          { name: '_summary', type: 'token', documentation: 'count (the total, no entries) or false.' },
          { name: '_total', type: 'token', documentation: 'none, estimate or accurate.' },
          {
            name: '_sort',
            type: 'token',
            documentation: '_lastUpdated (oldest first) or -_lastUpdated (newest first).',
          },
          {
            name: '_elements',
            type: 'token',
            documentation: 'Top-level elements to keep; the result is tagged SUBSETTED.',
          },
        ],
        operation: [
          {
            name: 'export',
            definition: BULK_EXPORT_OPERATION,
            documentation:
              'System-level Bulk Data export (Bulk Data Access IG v2): GET, or POST with a Parameters body; Prefer: respond-async; _type, _since; _outputFormat application/fhir+ndjson. The manifest is application/json.',
          },
        ],
      },
    ],
  };
}
