/**
 * The SMART configuration document (issue 52 item 3; SMART App Launch 2.x conformance.html
 * "Using .well-known": served at `[FHIR base]/.well-known/smart-configuration`, `application/json`),
 * describing what server/api-clients serves: Backend Services (client credentials) with
 * `client_secret_basic`/`client_secret_post` or a signed assertion (`private_key_jwt`, RS384/ES384),
 * and the `system/*.read`-style scopes of domain/api-clients.ts. No authorization endpoint: there is
 * no user-facing (launch) flow. Pure.
 */
import { apiClientScopes, assertionSigningAlgorithms } from '../../domain/api-clients.ts';

/** The document for the app at `appUrl` (no trailing slash), e.g. `https://portal.example`. */
export function smartConfiguration(appUrl: string) {
  return {
    issuer: appUrl,
    token_endpoint: `${appUrl}/oauth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic', 'client_secret_post'],
    token_endpoint_auth_signing_alg_values_supported: [...assertionSigningAlgorithms],
    scopes_supported: apiClientScopes.filter((scope) => scope.startsWith('system/')),
    capabilities: ['client-confidential-asymmetric', 'client-confidential-symmetric'],
  };
}
