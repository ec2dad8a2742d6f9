/**
 * Server-side password policy: length (domain/password-policy.ts) plus a zxcvbn-ts strength score.
 * A password is refused with code `weak_password` and human reasons (spec §5).
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { passwordLengthReasons } from '../../domain/password-policy.ts';

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
});

/** Minimum zxcvbn score (0-4) accepted. 3 = "safely unguessable: moderate protection from offline attacks". */
export const MIN_STRENGTH_SCORE = 3;

/**
 * Reasons the password is refused, empty when it is acceptable.
 * @param userInputs words the password must not lean on (email, names)
 */
export function weakPasswordReasons(password: string, userInputs: string[] = []): string[] {
  const lengthReasons = passwordLengthReasons(password);
  if (lengthReasons.length > 0) return lengthReasons;
  const result = zxcvbn.check(password, userInputs.filter(Boolean));
  if (result.score >= MIN_STRENGTH_SCORE) return [];
  const reasons = ['This password is too easy to guess.'];
  if (result.feedback.warning) reasons.push(result.feedback.warning);
  reasons.push(...result.feedback.suggestions);
  return [...new Set(reasons)];
}
