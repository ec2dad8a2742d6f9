/**
 * FHIR R4 resources of the directory API (issue 33 item 3): pure mappings from the directory facts
 * (server/directory/credentialed-providers.ts `DirectoryProvider`) and the verification checklist to
 * `Practitioner`, `PractitionerRole`, `Location`, `Organization` and `VerificationResult`.
 *
 * Ids (FHIR R4 §2.26 `id`: [A-Za-z0-9-.]{1,64}):
 * - Practitioner: the provider's user id (a UUID);
 * - PractitionerRole and Location: the practice location's `row_key` (the row's identity across
 *   recredentialing cycles, so a directory's ids do not change with each cycle);
 * - Organization: `group-<NPI>` per distinct group NPI of a practice location;
 * - VerificationResult: the checklist item's id.
 *
 * What follows the HL7 National Directory (NDH STU, http://hl7.org/fhir/us/ndh) and Da Vinci PDex
 * Plan-Net: the NPI identifier system `http://hl7.org/fhir/sid/us-npi`; qualifications coded from
 * v2-0360 (degrees) and NUCC (board certifications), each active one with the NDH
 * `base-ext-practitioner-qualification` extension (status 'active', `whereValid` a USPS state);
 * specialties as NUCC codes `http://nucc.org/provider-taxonomy`; accepting new patients as the NDH
 * `base-ext-newpatients` extension (`acceptingPatients` from NDH AcceptingPatientsCS); Location
 * `status` 'active'; VerificationResult with primary source, validation type and date as the NDH
 * Verification examples. Not claimed: conformance to the NDH or US Core profiles as a whole (the
 * profiles' packages are not validated here; see fhir-capability.ts and the README).
 *
 * What a resource carries is the minimum a directory needs (issue 49 item 3, HIPAA 164.502(b), the
 * rule per resource in decision 035), read from the published credential only (issue 49 item 1):
 * never the SSN, date of birth, home address, personal phone or email, the DEA number, or anything
 * else of Personal Information but the NPI, name, degree and gender; a VerificationResult names the
 * kind of item, its status, dates and the primary source's organization type, never what a reviewer
 * typed, claim counts, NPDB results or policy numbers. A credential suspended by ongoing monitoring
 * (issue 49 item 2) is `active: false` in its Practitioner and PractitionerRoles.
 */

import type {
  CodeableConcept,
  Coding,
  ContactPoint,
  Extension,
  Location,
  Organization,
  Practitioner,
  PractitionerQualification,
  PractitionerRole,
  Reference,
  VerificationResult,
} from '@medplum/fhirtypes';
import { type VerificationKind, verificationKindLabel } from '../../domain/review/verification-checklist.ts';
import type { DirectoryPracticeLocation, DirectoryProvider } from '../directory/credentialed-providers.ts';

/** FHIR identifier system of the NPI (NDH, US Core). */
export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
/** NUCC Health Care Provider Taxonomy (NDH `$NUCCProviderTaxonomy`). */
export const NUCC_SYSTEM = 'http://nucc.org/provider-taxonomy';
/** HL7 v2 table 0360, degree / license / certificate (NDH `$V2table0360CS`). */
export const DEGREE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0360';
/** USPS state codes (NDH `$USPSStateCS`). */
export const USPS_STATE_SYSTEM = 'https://www.usps.com/';
const NDH = 'http://hl7.org/fhir/us/ndh';
/** NDH New Patients extension (PractitionerRole, Location, HealthcareService). */
export const NEW_PATIENTS_EXTENSION = `${NDH}/StructureDefinition/base-ext-newpatients`;
/** NDH Practitioner Qualification extension (status, whereValid). */
export const PRACTITIONER_QUALIFICATION_EXTENSION = `${NDH}/StructureDefinition/base-ext-practitioner-qualification`;
/** NDH AcceptingPatientsCS: no | yes | existing | existingplusfamily. */
export const ACCEPTING_PATIENTS_SYSTEM = `${NDH}/CodeSystem/AcceptingPatientsCS`;
/** NDH CredentialStatusCS (the qualification's status code, fixed to 'active' by NDH). */
export const CREDENTIAL_STATUS_SYSTEM = `${NDH}/CodeSystem/CredentialStatusCS`;

/** The directory's accepting-new-patients answer as NDH AcceptingPatientsCS codes. */
const acceptingPatientsCode: Record<
  NonNullable<DirectoryPracticeLocation['acceptingNewPatients']>,
  Coding
> = {
  yes: { system: ACCEPTING_PATIENTS_SYSTEM, code: 'yes', display: 'Accepting' },
  existing_only: {
    system: ACCEPTING_PATIENTS_SYSTEM,
    code: 'existing',
    display: 'Accepting existing patients',
  },
  no: { system: ACCEPTING_PATIENTS_SYSTEM, code: 'no', display: 'Not Accepting' },
};

/** v2-0360 codes of the provider types the application offers (others are sent as text only). */
const degreeCodes: Record<string, string> = {
  MD: 'MD',
  DO: 'DO',
  DDS: 'DDS',
  DMD: 'DMD',
  DC: 'DC',
  RN: 'RN',
  LPN: 'LPN',
  PA: 'PA',
  APN: 'NP',
  'MD-PHD': 'MD',
};

const degreeTypeText: Record<string, string> = {
  associate: 'Associate degree',
  bachelor: "Bachelor's degree",
  master: "Master's degree",
  doctorate: 'Doctorate',
  certificate: 'Certificate',
};

const licenseTypeText: Record<string, string> = {
  medical_license: 'Medical License',
  nursing_license: 'Nursing License',
  other: 'License',
};

const US_STATE = /^[A-Z]{2}$/;

/** A FHIR `date` when `day` is `YYYY-MM-DD`, else undefined. */
function fhirDate(day: string | null | undefined): string | undefined {
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

function period(start: string | null, end: string | null): { start?: string; end?: string } | undefined {
  const p = {
    ...(fhirDate(start) ? { start: fhirDate(start) } : {}),
    ...(fhirDate(end) ? { end: fhirDate(end) } : {}),
  };
  return Object.keys(p).length > 0 ? p : undefined;
}

/** The NDH practitioner-qualification extension: status 'active', valid in `state` (USPS) when given. */
function qualificationExtension(state: string | null): Extension[] {
  const whereValid =
    state && US_STATE.test(state.toUpperCase())
      ? [
          {
            url: 'whereValid',
            valueCodeableConcept: { coding: [{ system: USPS_STATE_SYSTEM, code: state.toUpperCase() }] },
          },
        ]
      : [];
  return [
    {
      url: PRACTITIONER_QUALIFICATION_EXTENSION,
      extension: [{ url: 'status', valueCode: 'active' }, ...whereValid],
    },
  ];
}

const meta = (lastUpdated: Date) => ({ lastUpdated: lastUpdated.toISOString() });

/** `Practitioner/<userId>`. */
export function practitionerReference(
  provider: Pick<DirectoryProvider, 'userId' | 'givenName' | 'familyName'>,
): Reference<Practitioner> {
  return { reference: `Practitioner/${provider.userId}`, display: fullName(provider) || undefined };
}

function fullName(p: Pick<DirectoryProvider, 'givenName' | 'familyName'>): string {
  return `${p.givenName} ${p.familyName}`.trim();
}

/**
 * The provider as an R4 `Practitioner` (FHIR R4 §8.4; NDH Practitioner profile's elements):
 * identifier NPI (system us-npi), never the DEA number; name (family, given, the degree as suffix, text);
 * gender; telecom: the primary practice location's phone (work; the provider's own phone is never
 * published); qualification: each professional license (code text, license number as identifier,
 * issuer display 'State of XX', period issue..expiry, the NDH qualification extension with the
 * state when active), each board certification (NUCC code of the specialty it certifies when known,
 * issuer the board, period), each degree (v2-0360 for the provider type, text for others).
 * `active` is true while the credential's standing is 'active', false while it is suspended.
 */
export function toPractitioner(p: DirectoryProvider): Practitioner {
  const identifier: NonNullable<Practitioner['identifier']> = [];
  if (p.npi) identifier.push({ use: 'official', system: NPI_SYSTEM, value: p.npi });
  // Never the DEA number (issue 49 item 3, decision 035): a payer directory has no use for it.
  const qualification: PractitionerQualification[] = [];
  for (const license of p.licenses) {
    const active = license.status === 'active';
    qualification.push({
      ...(active ? { extension: qualificationExtension(license.state) } : {}),
      ...(license.number ? { identifier: [{ value: license.number }] } : {}),
      code: {
        text: [license.state, licenseTypeText[license.type ?? ''] ?? 'License'].filter(Boolean).join(' '),
      },
      ...(period(license.issuedOn, license.expiresOn)
        ? { period: period(license.issuedOn, license.expiresOn) }
        : {}),
      ...(license.state ? { issuer: { display: `State of ${license.state}` } } : {}),
    });
  }
  for (const cert of p.boardCertifications) {
    const code: CodeableConcept = {
      ...(cert.specialtyCodes.length > 0
        ? { coding: cert.specialtyCodes.map((c) => ({ system: NUCC_SYSTEM, code: c })) }
        : {}),
      text: cert.name,
    };
    qualification.push({
      ...(cert.number ? { identifier: [{ value: cert.number }] } : {}),
      code,
      ...(period(cert.issuedOn, cert.expiresOn) ? { period: period(cert.issuedOn, cert.expiresOn) } : {}),
      issuer: { display: cert.board },
    });
  }
  const degreeCode = p.degree ? degreeCodes[p.degree.toUpperCase()] : undefined;
  if (p.degree) {
    qualification.push({
      code: {
        ...(degreeCode ? { coding: [{ system: DEGREE_SYSTEM, code: degreeCode }] } : {}),
        text: p.degree,
      },
    });
  }
  for (const degree of p.education) {
    qualification.push({
      code: {
        text: [degreeTypeText[degree.degreeType ?? ''] ?? 'Degree', degree.fieldOfStudy]
          .filter(Boolean)
          .join(', '),
      },
      ...(period(null, degree.graduatedOn) ? { period: period(null, degree.graduatedOn) } : {}),
      ...(degree.institution ? { issuer: { display: degree.institution } } : {}),
    });
  }
  const primary = p.practiceLocations[0];
  const telecom: ContactPoint[] = primary?.phone
    ? [{ system: 'phone', value: primary.phone, use: 'work' }]
    : [];
  const name = fullName(p);
  return {
    resourceType: 'Practitioner',
    id: p.userId,
    meta: meta(p.lastUpdated),
    ...(identifier.length > 0 ? { identifier } : {}),
    active: p.standing === 'active',
    name: [
      {
        use: 'official',
        ...(name ? { text: p.degree ? `${name}, ${p.degree}` : name } : {}),
        ...(p.familyName ? { family: p.familyName } : {}),
        ...(p.givenName ? { given: [p.givenName] } : {}),
        ...(p.degree ? { suffix: [p.degree] } : {}),
      },
    ],
    ...(telecom.length > 0 ? { telecom } : {}),
    ...(p.gender ? { gender: p.gender === 'F' ? 'female' : 'male' } : {}),
    ...(qualification.length > 0 ? { qualification } : {}),
  };
}

/** The Organization id of a group NPI: `group-<NPI>`. */
export function organizationId(groupNpi: string): string {
  return `group-${groupNpi}`;
}

function address(l: DirectoryPracticeLocation): Location['address'] | undefined {
  const line = [l.address.line1, l.address.line2].filter((v): v is string => !!v);
  const a = {
    use: 'work' as const,
    type: 'physical' as const,
    ...(line.length > 0 ? { line } : {}),
    ...(l.address.city ? { city: l.address.city } : {}),
    ...(l.address.state ? { state: l.address.state } : {}),
    ...(l.address.postalCode ? { postalCode: l.address.postalCode } : {}),
    country: 'US',
  };
  return line.length > 0 || l.address.city || l.address.state || l.address.postalCode ? a : undefined;
}

function locationTelecom(l: DirectoryPracticeLocation): ContactPoint[] {
  return [
    ...(l.phone ? [{ system: 'phone' as const, value: l.phone, use: 'work' as const }] : []),
    ...(l.fax ? [{ system: 'fax' as const, value: l.fax, use: 'work' as const }] : []),
    ...(l.email ? [{ system: 'email' as const, value: l.email, use: 'work' as const }] : []),
  ];
}

function newPatientsExtension(l: DirectoryPracticeLocation): Extension[] {
  if (!l.acceptingNewPatients) return [];
  return [
    {
      url: NEW_PATIENTS_EXTENSION,
      extension: [
        {
          url: 'acceptingPatients',
          valueCodeableConcept: { coding: [acceptingPatientsCode[l.acceptingNewPatients]] },
        },
      ],
    },
  ];
}

/**
 * A practice location as an R4 `Location` (FHIR R4 §8.21; NDH Location's elements: status
 * 'active', name, telecom, address with USPS state and country, managing organization when it has
 * a group NPI, the newpatients extension).
 */
export function toLocation(p: DirectoryProvider, l: DirectoryPracticeLocation): Location {
  const telecom = locationTelecom(l);
  const addr = address(l);
  return {
    resourceType: 'Location',
    id: l.rowKey,
    meta: meta(p.lastUpdated),
    ...(newPatientsExtension(l).length > 0 ? { extension: newPatientsExtension(l) } : {}),
    status: 'active',
    name: l.name,
    mode: 'instance',
    ...(telecom.length > 0 ? { telecom } : {}),
    ...(addr ? { address: addr } : {}),
    ...(l.groupNpi
      ? { managingOrganization: { reference: `Organization/${organizationId(l.groupNpi)}`, display: l.name } }
      : {}),
  };
}

/**
 * The provider's role at one practice location as an R4 `PractitionerRole` (FHIR R4 §8.5; NDH
 * PractitionerRole's elements): active, practitioner, location, organization (the group, when its
 * NPI is given), specialty (every specialty as a NUCC code, the primary first), telecom (the
 * location's), the NDH newpatients extension.
 */
export function toPractitionerRole(p: DirectoryProvider, l: DirectoryPracticeLocation): PractitionerRole {
  const telecom = locationTelecom(l);
  return {
    resourceType: 'PractitionerRole',
    id: l.rowKey,
    meta: meta(p.lastUpdated),
    ...(newPatientsExtension(l).length > 0 ? { extension: newPatientsExtension(l) } : {}),
    active: p.standing === 'active',
    practitioner: practitionerReference(p),
    ...(l.groupNpi
      ? { organization: { reference: `Organization/${organizationId(l.groupNpi)}`, display: l.name } }
      : {}),
    location: [{ reference: `Location/${l.rowKey}`, display: l.name }],
    ...(p.specialties.length > 0
      ? {
          specialty: p.specialties.map((s) => ({
            coding: [{ system: NUCC_SYSTEM, code: s.code, display: s.display }],
            text: `${s.display} (${s.rank})`,
          })),
        }
      : {}),
    ...(telecom.length > 0 ? { telecom } : {}),
  };
}

/** A group practice: its NPI and a location row that names it. */
export interface DirectoryGroup {
  groupNpi: string;
  location: DirectoryPracticeLocation;
  lastUpdated: Date;
}

/**
 * A group practice (a practice location's group NPI) as an R4 `Organization` (FHIR R4 §8.2): the
 * NPI identifier, active, type 'prov' (healthcare provider, organization-type), name, the location's
 * telecom and address.
 */
export function toOrganization(g: DirectoryGroup): Organization {
  const telecom = locationTelecom(g.location);
  const addr = address(g.location);
  return {
    resourceType: 'Organization',
    id: organizationId(g.groupNpi),
    meta: meta(g.lastUpdated),
    identifier: [{ use: 'official', system: NPI_SYSTEM, value: g.groupNpi }],
    active: true,
    type: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/organization-type',
            code: 'prov',
            display: 'Healthcare Provider',
          },
        ],
      },
    ],
    name: g.location.name,
    ...(telecom.length > 0 ? { telecom } : {}),
    ...(addr ? { address: [addr] } : {}),
  };
}

/**
 * One checklist item (server table `verification_items`) as the VerificationResult mapping reads it:
 * its kind, status and dates only. What was verified in words, the source a reviewer typed and the
 * notes are never read here (issue 49 item 3, decision 035).
 */
export interface ChecklistItemFacts {
  id: string;
  /** domain/review/verification-checklist.ts `VerificationKind`. */
  kind: string;
  /** 'pending' | 'verified' | 'discrepancy' | 'waived' | 'needs_reverification'. */
  status: string;
  /** `YYYY-MM-DD`, or null. */
  verifiedAt: string | null;
  updatedAt: Date;
}

/** The checklist's statuses as R4 verificationresult-status (FHIR R4 §8.x VerificationResult.status). */
const verificationStatus: Record<string, VerificationResult['status']> = {
  pending: 'in-process',
  verified: 'validated',
  discrepancy: 'val-fail',
  // A waiver accepts the provider's attested information without a primary-source check.
  waived: 'attested',
  needs_reverification: 'req-revalid',
};

/** Where in the Practitioner each kind's verification applies (VerificationResult.targetLocation). */
const targetLocation: Record<string, string> = {
  license: 'Practitioner.qualification',
  board_certification: 'Practitioner.qualification',
  education: 'Practitioner.qualification',
  training: 'Practitioner.qualification',
  npi: "Practitioner.identifier.where(system='http://hl7.org/fhir/sid/us-npi')",
};

/**
 * The primary source's organization type (verificationresult-primary-source-type) for a checklist
 * kind, and how the published VerificationResult names the source: the type of organization, never a
 * name a reviewer typed (issue 49 item 3).
 */
const primarySourceType: Record<string, Coding> = {
  license: { code: 'lic-board', display: 'License Board' },
  board_certification: { code: 'issuer', display: 'Issuing source' },
  education: { code: 'prim', display: 'Primary Education' },
  training: { code: 'prim', display: 'Primary Education' },
  npi: { code: 'issuer', display: 'Issuing source' },
  dea: { code: 'issuer', display: 'Issuing source' },
  work_history: { code: 'rel-own', display: 'Relationship owner' },
  malpractice: { code: 'issuer', display: 'Issuing source' },
  exclusions: { code: 'reg-auth', display: 'Registration Authority' },
  hospital_privileges: { code: 'issuer', display: 'Issuing source' },
  claims_history: { code: 'reg-auth', display: 'Registration Authority' },
};

/**
 * One checklist item as an R4 `VerificationResult` (FHIR R4 §8.x; issue 49 item 3, HIPAA 164.502(b)
 * minimum necessary): target the Practitioner, displayed as the kind of item ('Professional license',
 * 'Claims history'), targetLocation for the kinds that map to an element, status (pending →
 * in-process, verified → validated, discrepancy → val-fail, waived → attested, needs re-verification
 * → req-revalid), statusDate (the item's last change), validationType 'primary', primarySource (its
 * organization type, and the outcome once decided with its day). Never what the item names in words
 * (license or policy numbers, claim counts, NPDB results), the source a reviewer typed, or notes.
 * An exclusion item of a credential suspended by an exclusion (issue 49 item 2) is `val-fail` naming
 * the list and the day it was found: the list is the product's own registry name, not free text.
 */
export function toVerificationResult(p: DirectoryProvider, item: ChecklistItemFacts): VerificationResult {
  const exclusion = item.kind === 'exclusions' ? p.findings.find((f) => f.kind === 'exclusion') : undefined;
  const status = exclusion ? 'val-fail' : (verificationStatus[item.status] ?? 'in-process');
  const outcome = status === 'validated' ? 'successful' : status === 'val-fail' ? 'failed' : undefined;
  const type = primarySourceType[item.kind];
  const validationDate = exclusion?.foundOn ?? item.verifiedAt;
  const label = verificationKindLabel[item.kind as VerificationKind] ?? 'Verification';
  return {
    resourceType: 'VerificationResult',
    id: item.id,
    meta: meta(exclusion && p.lastUpdated > item.updatedAt ? p.lastUpdated : item.updatedAt),
    target: [{ ...practitionerReference(p), display: label }],
    ...(targetLocation[item.kind] ? { targetLocation: [targetLocation[item.kind]!] } : {}),
    status,
    statusDate: (exclusion && p.lastUpdated > item.updatedAt ? p.lastUpdated : item.updatedAt).toISOString(),
    validationType: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/validation-type',
          code: 'primary',
          display: 'Primary Source',
        },
      ],
    },
    primarySource: [
      {
        who: { display: exclusion ? exclusion.detail : (type?.display ?? label) },
        ...(type
          ? {
              type: [
                {
                  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/primary-source-type', ...type }],
                },
              ],
            }
          : {}),
        ...(outcome
          ? {
              validationStatus: {
                coding: [
                  { system: 'http://terminology.hl7.org/CodeSystem/validation-status', code: outcome },
                ],
              },
            }
          : {}),
        ...(validationDate && fhirDate(validationDate) ? { validationDate } : {}),
      },
    ],
  };
}
