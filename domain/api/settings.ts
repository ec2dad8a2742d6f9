/**
 * The organization's settings an administrator keeps (issue 50 item 7): the name and address the
 * decision letters carry, and who signs them (name and title). Empty until set: letters then close
 * as 'The Credentialing Team'.
 */
import { z } from 'zod';
import { controlCharacterMessage, hasControlCharacter } from '../person-name.ts';

/** Longest organization name, signer name or title, in characters. */
export const SETTING_TEXT_MAX = 200;
/** Longest postal address (several lines), in characters. */
export const ADDRESS_MAX = 500;

const line = (label: string) =>
  z
    .string({ error: `${label} is text` })
    .refine((v) => !hasControlCharacter(v), controlCharacterMessage(label))
    .pipe(z.string().trim().max(SETTING_TEXT_MAX, `${label} may be at most ${SETTING_TEXT_MAX} characters`));

/** GET/PUT /api/admin/settings. */
export const organizationSettingsSchema = z.object({
  organizationName: line('Organization name'),
  /** Lines separated by newlines (the one field that may hold them). */
  address: z
    .string({ error: 'Address is text' })
    .trim()
    .max(ADDRESS_MAX, `Address may be at most ${ADDRESS_MAX} characters`),
  signerName: line('Letter signer'),
  signerTitle: line("Signer's title"),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** The settings before an administrator saved any. */
export const emptyOrganizationSettings: OrganizationSettings = {
  organizationName: '',
  address: '',
  signerName: '',
  signerTitle: '',
};
