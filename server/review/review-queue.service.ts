/**
 * The 'Review Queue' (issue 13, docs/decisions/018-review-workflow.md and 009): submitted and
 * under-review applications and the open credential updates, one page at a time, each read by one
 * prepared statement per filter, with the decision's clock of each row.
 */

import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { ReviewQueue, ReviewQueueQuery } from '../../domain/api/review.ts';
import { REVIEW_QUEUE_PAGE_SIZE } from '../../domain/api/review.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { nextUtcDayStart } from '../../domain/calendar.ts';
import {
  type DecisionClockLimits,
  decisionDue,
  defaultDecisionClockLimits,
} from '../../domain/committee/timeliness.ts';
import { reviewStatuses } from '../../domain/review/review-workflow.ts';
import { countRows } from '../admin/admin-list-query.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import { preparedSql } from '../db/prepared-reads.ts';
import { providerApplications } from '../db/schema/core.ts';
import { credentialUpdates } from '../db/schema/credentials.ts';

/** One row of the review queue's statement (`reviewQueueStatement`), as node-postgres reads it. */
interface ReviewQueueRow extends Record<string, unknown> {
  application_id: string;
  kind: 'application' | 'credential_update';
  user_id: string;
  application_status: ApplicationStatus;
  submitted_at: string | null;
  reviewer_id: string | null;
  provider_name: string | null;
  reviewer_name: string | null;
  open_request: boolean;
  checklist_done: number;
  checklist_needs_reverification: number;
  checklist_total: number;
  attested_at: string | null;
  oldest_verified_on: string | null;
  update_opened_at: string | null;
  update_sections: string[] | null;
}

/** The queue's filters that change its statement: one prepared statement per combination. */
interface ReviewQueueVariant {
  status: ApplicationStatus | undefined;
  assignedToMe: boolean;
}

/**
 * The WHERE of the queue's applications and of its open credential updates (issue 29 item 4) for
 * `variant`; `reviewer` is the caller's id (a placeholder in the prepared page, a value in a count).
 */
function reviewQueueWhere({ status, assignedToMe }: ReviewQueueVariant, reviewer: unknown) {
  const a = providerApplications;
  const statuses: ApplicationStatus[] = status ? [status] : [...reviewStatuses];
  return {
    applications: and(
      inArray(a.applicationStatus, statuses),
      assignedToMe ? sql`${a.reviewerId} = ${reviewer}` : undefined,
    ),
    updates: and(
      isNull(credentialUpdates.reviewedAt),
      assignedToMe ? sql`${a.reviewerId} = ${reviewer}` : undefined,
    ),
  };
}

/**
 * One page of the queue for `variant`, as one statement: the page's ids first, from the partial
 * indexes alone (an index-only scan that skips the offset without touching the rows: asking for the
 * names and counts in the same select evaluated them for every skipped row too, page 400 took 70 ms
 * p95 at 100,000 in review, bench/admin.bench.ts); only then the page's rows' names, open request,
 * checklist counts, attestation and open update. Placeholders: `offset`,
 * and `reviewer` when assigned to the caller.
 */
function reviewQueueStatement(variant: ReviewQueueVariant) {
  const a = providerApplications;
  const u = credentialUpdates;
  const where = reviewQueueWhere(variant, sql.placeholder('reviewer'));
  // Issue 29 item 4: open credential updates are listed too (no status filter), ordered with the
  // applications by when they were sent. Their rows come from the partial index
  // credential_updates_queue_idx (opened_at, id), the applications' from the review queue index.
  const updates = variant.status
    ? sql``
    : sql` union all
        select ${u.applicationId} as id, 'credential_update' as kind, ${u.openedAt} as sort_at
        from ${u} join ${a} on ${a.id} = ${u.applicationId} where ${where.updates}`;
  return preparedSql<ReviewQueueRow>(
    `admin_review_queue_${variant.status ?? 'all'}_${variant.assignedToMe ? 'mine' : 'everyone'}`,
    sql`
    with page as (
      select q.id, q.kind, q.sort_at from (
        select ${a.id} as id, 'application' as kind, ${a.submittedAt} as sort_at from ${a} where ${where.applications}
        ${updates}
      ) q order by q.sort_at, q.id limit ${REVIEW_QUEUE_PAGE_SIZE} offset ${sql.placeholder('offset')}
    )
    select page.id as application_id, page.kind, qa.user_id, qa.application_status, qa.submitted_at,
      qa.reviewer_id,
      (select p.first_name || ' ' || p.last_name from profiles p where p.user_id = qa.user_id) as provider_name,
      (select ru.name from "user" ru where ru.id = qa.reviewer_id) as reviewer_name,
      exists (select 1 from information_requests r where r.application_id = qa.id and r.responded_at is null) as open_request,
      (select count(*)::int from verification_items v where v.application_id = qa.id and v.status in ('verified', 'waived')) as checklist_done,
      -- Issue 29 follow-up: read from verification_items_progress_idx like the count above.
      (select count(*)::int from verification_items v where v.application_id = qa.id and v.status = 'needs_reverification') as checklist_needs_reverification,
      (select count(*)::int from verification_items v where v.application_id = qa.id) as checklist_total,
      -- Issue 32 item 7: what starts the decision's clock.
      (select max(t.signed_at) from application_attestations t where t.application_id = qa.id) as attested_at,
      (select min(v.verified_at)::text from verification_items v where v.application_id = qa.id and v.status = 'verified') as oldest_verified_on,
      upd.opened_at as update_opened_at, upd.sections as update_sections
    from page
    join ${a} qa on qa.id = page.id
    left join ${u} upd on page.kind = 'credential_update' and upd.application_id = page.id and upd.reviewed_at is null
    order by page.sort_at, page.id`,
  );
}

const reviewQueueStatements = new Map<string, ReturnType<typeof reviewQueueStatement>>();

/** One page of the queue's rows and its total (capped at LIST_COUNT_CAP), read in parallel. */
async function readReviewQueuePage(
  db: Database,
  variant: ReviewQueueVariant,
  statement: ReturnType<typeof reviewQueueStatement>,
  offset: number,
  reviewerId: string,
): Promise<{ rows: ReviewQueueRow[]; counted: { total: number; totalCapped: boolean } }> {
  const a = providerApplications;
  const where = reviewQueueWhere(variant, reviewerId);
  const [{ rows }, applications, updates] = await Promise.all([
    statement(db, variant.assignedToMe ? { offset, reviewer: reviewerId } : { offset }),
    // Counted up to LIST_COUNT_CAP like the other admin lists: the count reads the partial index row
    // by row, and past 10,000 the exact number helps no reviewer.
    countRows(db, sql`from ${a} where ${where.applications}`, true),
    variant.status
      ? Promise.resolve({ total: 0, totalCapped: false })
      : countRows(
          db,
          sql`from ${credentialUpdates} join ${a} on ${a.id} = ${credentialUpdates.applicationId} where ${where.updates}`,
          true,
        ),
  ]);
  return {
    rows,
    counted: {
      total: applications.total + updates.total,
      totalCapped: applications.totalCapped || updates.totalCapped,
    },
  };
}

/**
 * The review queue (issue 13): submitted and under-review applications, oldest submission first, and
 * (without a status filter) the open credential updates of approved applications by when they were
 * sent (issue 29 item 4, kind 'credential_update'), one page of REVIEW_QUEUE_PAGE_SIZE, with days
 * since submission (an update: since it was sent) as of `now`, the reviewer, whether a request is
 * open and checklist progress (verified or waived, needing re-verification, total). One prepared
 * statement per filter (`reviewQueueStatement`), served by the partial index
 * provider_applications_review_queue_idx (submitted_at, id) and, per row of the page only, the
 * verification_items_progress_idx and information_requests_one_open_idx (decision 018).
 * @returns the queue, and until when (ms since the epoch) it reads the same without a write: the next
 *   UTC day or a row's next whole day waiting, whichever is first (`now` itself when a row has no
 *   submission time); the route remembers the answer that long (admin/list-cache.ts)
 */
export async function reviewQueue(
  db: Database,
  actor: Actor,
  query: ReviewQueueQuery,
  now: Date,
  limits: DecisionClockLimits = defaultDecisionClockLimits,
): Promise<{ queue: ReviewQueue; validUntil: number }> {
  const variant: ReviewQueueVariant = { status: query.status, assignedToMe: query.assigned === 'me' };
  const name = `${variant.status ?? 'all'}:${variant.assignedToMe}`;
  let statement = reviewQueueStatements.get(name);
  if (!statement) {
    statement = reviewQueueStatement(variant);
    reviewQueueStatements.set(name, statement);
  }
  const offset = (query.page - 1) * REVIEW_QUEUE_PAGE_SIZE;
  const { rows, counted } = await readReviewQueuePage(db, variant, statement, offset, actor.userId);
  const day = 24 * 60 * 60 * 1000;
  // Every decision due moves at the next UTC day; each row's days waiting at its own next whole day.
  let validUntil = nextUtcDayStart(now);
  const queue: ReviewQueue = {
    items: rows.flatMap((r) => {
      const update =
        r.kind === 'credential_update' && r.update_opened_at
          ? { openedAt: new Date(r.update_opened_at), sections: r.update_sections ?? [] }
          : undefined;
      if (r.kind === 'credential_update' && !update) return [];
      const submittedAt = r.submitted_at ? new Date(r.submitted_at) : now;
      const waitingSince = update?.openedAt ?? submittedAt;
      const daysWaiting = Math.max(0, Math.floor((now.getTime() - waitingSince.getTime()) / day));
      // A row without a submission time says `now` itself: that answer holds for no later request.
      validUntil = r.submitted_at
        ? Math.min(validUntil, waitingSince.getTime() + (daysWaiting + 1) * day)
        : now.getTime();
      return [
        {
          applicationId: r.application_id,
          userId: r.user_id,
          applicationStatus: r.application_status,
          reviewerId: r.reviewer_id,
          reviewerName: r.reviewer_name,
          openRequest: r.open_request,
          checklistDone: r.checklist_done,
          checklistNeedsReverification: r.checklist_needs_reverification,
          checklistTotal: r.checklist_total,
          kind: r.kind,
          decisionDue:
            r.kind === 'application'
              ? decisionDue(
                  {
                    attestedAt: r.attested_at ? new Date(r.attested_at) : null,
                    oldestVerifiedOn: r.oldest_verified_on,
                  },
                  limits,
                  now,
                )
              : null,
          credentialUpdate: update
            ? { openedAt: update.openedAt.toISOString(), sections: update.sections }
            : null,
          providerName: r.provider_name ?? '',
          submittedAt: submittedAt.toISOString(),
          daysSinceSubmission: daysWaiting,
        },
      ];
    }),
    page: query.page,
    pageSize: REVIEW_QUEUE_PAGE_SIZE,
    total: counted.total,
    totalCapped: counted.totalCapped,
  };
  return { queue, validUntil };
}
