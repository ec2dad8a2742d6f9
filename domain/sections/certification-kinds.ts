/**
 * The kinds of certification (issue 51 item 4), without zod: certifications.ts re-exports them beside
 * the schema, and the pure readers of a snapshot (the verification checklist, the published
 * credential's facts, domain/credentials/credential-facts.ts: "no zod") read them from here.
 *
 * A board certification is one from an ABMS or AOA member board (NCQA CR 3 verifies it with the
 * board); it is a 'Board certification' checklist item and may certify a specialty. Any other
 * certification (ACLS, BLS, PALS, ...) is kept in the record, without a checklist item.
 */

/** The kinds of certification (issue 51 item 4); stored in `certifications.certification_kind`. */
export const certificationKinds = ['board', 'other'] as const;
export type CertificationKind = (typeof certificationKinds)[number];
/** How each kind is offered on the form and named on every screen (issue 51 item 4). */
export const certificationKindLabel: Record<CertificationKind, string> = {
  board: 'Board Certification (ABMS/AOA board)',
  other: 'Other Certification (e.g. ACLS, BLS, PALS)',
};
/**
 * The kind of a certification written before issue 51 item 4: every one was treated as a board
 * certification, so the migration gives old rows this kind (and so does an older snapshot, whose
 * rows have no `certification_kind`).
 */
export const LEGACY_CERTIFICATION_KIND: CertificationKind = 'board';

/**
 * Whether a certifications row as the snapshot and the completion payload carry it (snake_case,
 * `certification_kind`) is a board certification (issue 51 item 4): the only kind a 'Board
 * certification' checklist item verifies and the directory publishes; ACLS or BLS is 'other'. A row
 * of a snapshot stored before that issue has no kind and is LEGACY_CERTIFICATION_KIND.
 */
export function isBoardCertificationRow(row: Readonly<Record<string, unknown>>): boolean {
  const kind = typeof row.certification_kind === 'string' ? row.certification_kind.trim() : '';
  return (kind || LEGACY_CERTIFICATION_KIND) === 'board';
}
