/**
 * Rules a section's rows must keep that the row schema alone cannot check (issue 31), applied by
 * `saveRows` inside the save's transaction, so a refused save leaves nothing half-saved:
 *
 * - Before the writes, `serverRowRules` per section: what needs the server's data. Specialties: the
 *   taxonomy code is in the shipped NUCC code set (its classification and specialization are written
 *   from the set, whatever the client sent), and a linked board certification is a certification of
 *   the same application of kind 'board' (issue 51 item 4).
 * - After the writes, the section's own `rowsRule` (domain, shared with the screen) over every row now
 *   saved: exactly one primary specialty (issue 51 item 4), at most one primary location, a none
 *   answer alone. A delete (`deleteRow`) does not apply it: removing the primary card leaves the
 *   others to be saved with a new primary, which the screen then asks for.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { certificationKindLabel } from '../../domain/sections/certifications.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import type { ListSectionDefinition } from '../../domain/sections/section.ts';
import type { Transaction } from '../db/client.ts';
import { certifications } from '../db/schema/sections.ts';
import { taxonomyCodeSet } from './taxonomy.ts';

/** A card of a save, after parsing: its fields and, for a saved row, its id. */
type Card = Record<string, unknown> & { id?: string };

/** A server rule over a save's cards; it may rewrite them (derived fields) and throws to refuse. */
export type ServerRowsRule = (tx: Transaction, applicationId: string, cards: Card[]) => Promise<void>;

function refused(message: string, index: number, field: string): AppError {
  return new AppError(
    'validation_failed',
    `Please correct the highlighted fields: Entry ${index + 1}: ${message}`,
    {
      issues: [{ path: ['rows', index, field], message }],
    },
  );
}

/**
 * Specialties (issue 31): each code is in the code set, named from it; each linked certification is
 * this application's, and a board certification (issue 51 item 4: kind 'board').
 * @throws AppError validation_failed (400) naming the entry
 */
async function specialtiesRule(tx: Transaction, applicationId: string, cards: Card[]): Promise<void> {
  const { byCode } = taxonomyCodeSet();
  for (const [index, card] of cards.entries()) {
    const entry = byCode.get(String(card.taxonomyCode));
    if (!entry) {
      throw refused(
        `${String(card.taxonomyCode)} is not a code of the NUCC taxonomy. Choose a specialty from the list.`,
        index,
        'taxonomyCode',
      );
    }
    card.classification = entry.classification;
    card.specialization = entry.specialization || null;
  }
  const linked = [
    ...new Set(cards.flatMap((c) => (c.boardCertificationId ? [String(c.boardCertificationId)] : []))),
  ];
  if (linked.length === 0) return;
  const kindById = new Map(
    (
      await tx
        .select({ id: certifications.id, kind: certifications.certificationKind })
        .from(certifications)
        .where(and(eq(certifications.applicationId, applicationId), inArray(certifications.id, linked)))
    ).map((r) => [r.id, r.kind]),
  );
  const linkedKind = (card: Card) =>
    card.boardCertificationId ? kindById.get(String(card.boardCertificationId)) : undefined;
  const index = cards.findIndex((c) => c.boardCertificationId && !linkedKind(c));
  if (index !== -1) {
    throw refused(
      'This certification is not in your Certifications section (it may have been deleted). Choose one from the list.',
      index,
      'boardCertificationId',
    );
  }
  // Issue 51 item 4: a specialty is certified by a board, not by ACLS or BLS.
  const notBoard = cards.findIndex((c) => c.boardCertificationId && linkedKind(c) !== 'board');
  if (notBoard !== -1) {
    throw refused(
      `This certification is not a board certification (its type is '${certificationKindLabel.other}'). Choose a board certification, or leave this empty.`,
      notBoard,
      'boardCertificationId',
    );
  }
}

/** Server rules by section key. */
export const serverRowRules: Partial<Record<SectionKey, ServerRowsRule>> = {
  specialties: specialtiesRule,
};

/**
 * The section's `rowsRule` over every row saved (screen order).
 * @throws AppError validation_failed (400) with the rule's message, at `['rows', index, field]`
 */
export function assertRowsRule(
  section: ListSectionDefinition,
  rows: readonly Record<string, unknown>[],
): void {
  const issue = section.rowsRule?.(rows);
  if (!issue) return;
  throw new AppError('validation_failed', issue.message, {
    issues: [{ path: ['rows', issue.index, ...(issue.field ? [issue.field] : [])], message: issue.message }],
  });
}
