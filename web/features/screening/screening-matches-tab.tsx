/**
 * The 'Screening Matches' tab of /admin (issue 30 item 4): the findings waiting for an administrator,
 * each a card (finding-card.tsx) with the provider's and the list row's fields side by side. An open
 * possible match offers 'Confirm Match' and 'Not the Same Person'; a pending change (the row ended or
 * left the list) offers 'Accept Change'. Each asks for a reason (at most SCREENING_REASON_MAX
 * characters, the contract's schema) in a dialog, then POSTs the decision; the card leaves the list.
 * When another administrator decided first the server answers 409: its message is shown and the
 * queue is read again.
 * Data: screening-api.ts; contract domain/api/screening.ts.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import {
  type FindingDecision,
  findingDecisionBodySchema,
  findingDecisionLabel,
  SCREENING_REASON_MAX,
} from '../../../domain/api/screening.ts';
import { ApiError } from '../../api.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { FindingCard } from './finding-card.tsx';
import { type ScreeningFinding, useFindingDecision, useScreeningQueue } from './screening-api.ts';
import { countOf, decisionHelp } from './screening-texts.ts';

const reasonSchema = findingDecisionBodySchema.pick({ reason: true });

/** The toast after a decision. */
const decidedText: Record<FindingDecision, (finding: ScreeningFinding) => string> = {
  confirm_match: (f) => `${f.providerName}: the ${f.sourceLabel} match is confirmed.`,
  not_same_person: (f) =>
    `${f.providerName} is not the person on the ${f.sourceLabel} row; the row is cleared.`,
  accept_change: (f) => `${f.providerName}: the ${f.sourceLabel} change is accepted.`,
};

/** The tab's content; queries only while the tab is shown. */
export function ScreeningMatchesTab({ enabled, canAct }: { enabled: boolean; canAct: boolean }) {
  const queue = useScreeningQueue(enabled);
  const decide = useFindingDecision();
  // The last decision asked for stays while its dialog closes (its title must not change meanwhile).
  const [deciding, setDeciding] = useState<{ finding: ScreeningFinding; decision: FindingDecision } | null>(
    null,
  );
  const [dialogOpen, setDialogOpen] = useState(false);

  const submit = async (reason: string) => {
    if (!deciding) return;
    const { finding, decision } = deciding;
    const title = findingDecisionLabel[decision];
    try {
      await decide.mutateAsync({ findingId: finding.id, body: { decision, reason } });
      notifySuccess(title, decidedText[decision](finding));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // Decided elsewhere meanwhile: say so, close the dialog; the queue is read again.
        notifyError('Already Decided', error.message);
        return;
      }
      if (!(error instanceof ApiError && error.issues.length > 0))
        notifyError(
          `${title} Failed`,
          error instanceof Error ? error.message : 'The decision was not saved.',
        );
      throw error;
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="screening-matches-title">
      <Title order={2} size="h4" id="screening-matches-title">
        Screening Matches
      </Title>
      <Text size="sm">
        Possible matches found by exclusion screening, and matches whose list row has changed. Compare the
        provider with the list row, then decide; every decision needs a reason and is audited.
      </Text>
      {queue.isPending ? (
        <InlineLoader label="Loading screening matches..." />
      ) : queue.isError ? (
        <Text>The screening matches could not be loaded. Reload the page to try again.</Text>
      ) : queue.data.length === 0 ? (
        <Text c="dimmed">No screening matches to review.</Text>
      ) : (
        <>
          <Text size="sm" aria-live="polite">
            {countOf(queue.data.length, 'finding', 'findings')} to review
          </Text>
          <Stack
            component="ul"
            gap="sm"
            aria-label="Screening matches to review"
            aria-busy={queue.isFetching}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {queue.data.map((finding) => (
              <FindingCard
                key={finding.id}
                finding={finding}
                onDecide={
                  canAct
                    ? (f, decision) => {
                        setDeciding({ finding: f, decision });
                        setDialogOpen(true);
                      }
                    : undefined
                }
              />
            ))}
          </Stack>
        </>
      )}
      <ReasonDialog
        opened={dialogOpen && deciding !== null}
        title={
          deciding
            ? `${findingDecisionLabel[deciding.decision]}: ${deciding.finding.providerName}`
            : 'Decision'
        }
        submitLabel={deciding ? findingDecisionLabel[deciding.decision] : 'Save'}
        destructive={deciding?.decision === 'confirm_match'}
        maxLength={SCREENING_REASON_MAX}
        description={`At most ${SCREENING_REASON_MAX} characters; kept in the audit log.`}
        schema={reasonSchema}
        onSubmit={submit}
        onClose={() => setDialogOpen(false)}
      >
        <Text size="sm">{deciding ? decisionHelp[deciding.decision] : ''}</Text>
      </ReasonDialog>
    </Stack>
  );
}
