/**
 * The second factor's calls (issue 16; better-auth's two-factor plugin behind /api/auth/two-factor/*)
 * and what the set-up screens show of their answers. Nothing here is stored outside React state:
 * the key and the backup codes leave memory when the page does.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { meQueryKey } from '../../app/session.ts';

/** POST /api/auth/two-factor/enable: the authenticator's URI and ten backup codes (not active yet). */
export interface Enrolment {
  /** `otpauth://totp/<issuer>:<email>?secret=<base32>&issuer=...&digits=6&period=30` */
  totpURI: string;
  backupCodes: string[];
}

/** Start an enrolment with the account password: the factor is active only once a code confirms it. */
export function useStartEnrolment() {
  return useMutation({
    mutationFn: (password: string) => api<Enrolment>('POST', '/api/auth/two-factor/enable', { password }),
  });
}

/**
 * Confirm the enrolment with a first code (6 digits, spaces removed). The server then ends the
 * user's other sessions; the session is read again so `twoFactorRequired` turns false before this
 * resolves (the guards would send an administrator back to the set-up page otherwise).
 */
export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<unknown>('POST', '/api/auth/two-factor/verify-totp', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** Turn the second factor off with the account password (providers only: administrators get 403). */
export function useTurnOffTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api<unknown>('POST', '/api/auth/two-factor/disable', { password }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/**
 * The base32 key in an `otpauth://` URI (its `secret` parameter, RFC 4648 base32 as Google
 * Authenticator's key-URI format defines it), upper case without padding; '' when there is none.
 */
export function secretOfTotpUri(uri: string): string {
  try {
    return (new URL(uri).searchParams.get('secret') ?? '').toUpperCase().replace(/=+$/, '');
  } catch {
    return '';
  }
}

/** `ABCDEFGHIJ` -> `ABCD EFGH IJ`: the key as people read and type it (the copy keeps it whole). */
export function groupInFours(text: string): string {
  return text.match(/.{1,4}/g)?.join(' ') ?? '';
}

/** The text of the backup codes' download: what they are, for which account, one code a line. */
export function backupCodesFileText(codes: readonly string[], email: string): string {
  return [
    'Healthcare Provider Credentialing System: two-factor authentication backup codes',
    `Account: ${email}`,
    '',
    'Each code signs you in once, in place of the code from your authenticator app.',
    'Keep them somewhere safe, away from this device.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Save `text` as a download named `fileName` (a Blob behind a short-lived object URL, never a server URL). */
export function downloadTextFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, so the browser has started reading the Blob.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
