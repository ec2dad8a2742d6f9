/**
 * The 'Exclusions' tab of /admin (issue 30 items 1, 2, 5; replaces issue 15's LEIE-only tab):
 * - Every screening source (OIG LEIE, SAM.gov, the state Medicaid lists): its rows on the list and
 *   those in force, the publisher with the page to download the file from, when and from which file
 *   its list was last applied, and 'Stale' when it was never imported or not for STALE_SOURCE_DAYS.
 * - 'Import File' (.csv, .txt, SAM.gov's .zip, New York's .xlsx; upload with progress) reads and stages a file: nothing changes until
 *   'Apply'. Each staged import (also those left from before) shows what was read
 *   (staged-import-card.tsx); 'Apply' asks for a reason first when the server says the file needs one
 *   (an empty full file, or one shrinking the list by more than 10 %); 'Discard' asks to confirm.
 * After 'Apply' the server screens every provider under review or approved; the toast says the list
 * before and after and what the screening found.
 * Data: screening-api.ts; contract domain/api/screening.ts.
 */
import { Anchor, Badge, Button, FileButton, Progress, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { requiredApplyReasonSchema, SCREENING_REASON_MAX } from '../../../domain/api/screening.ts';
import { LIST_FILE_ACCEPT } from '../../../domain/screening/list-file-sniffing.ts';
import { ApiError } from '../../api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { badgeColor } from '../../theme.ts';
import {
  type ExclusionSourceStatus,
  type StagedImport,
  useApplyImport,
  useDiscardImport,
  useExclusionsOverview,
  useStageImport,
} from './screening-api.ts';
import { applyResultText, countOf, staleText, stateCoverageText } from './screening-texts.ts';
import { StagedImportCard } from './staged-import-card.tsx';

const lastAppliedKind: Record<NonNullable<ExclusionSourceStatus['lastApplied']>['kind'], string> = {
  full: 'full list',
  additions: 'new exclusions',
  reinstatements: 'reinstatements',
};

const sourceColumns: TableColumn<ExclusionSourceStatus>[] = [
  {
    header: 'Source',
    render: (s) => (
      <>
        <Text size="sm" fw={600} span display="block">
          {s.label}
        </Text>
        <Text size="xs" c="dimmed" span display="block">
          {s.state ? `State Medicaid list (${s.state})` : 'Federal list'}
        </Text>
      </>
    ),
  },
  {
    header: 'Publisher',
    render: (s) => (
      <>
        <Text size="sm" span display="block">
          {s.publisher}
        </Text>
        <Anchor
          size="sm"
          href={s.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Download page of ${s.label} (opens in a new tab)`}
        >
          Download page
        </Anchor>
      </>
    ),
  },
  {
    header: 'Rows on the list',
    render: (s) => (
      <>
        <Text size="sm" span display="block">
          {countOf(s.rows, 'row', 'rows')}
        </Text>
        <Text size="xs" c="dimmed" span display="block">
          {countOf(s.activeRows, 'exclusion', 'exclusions')} in force
        </Text>
      </>
    ),
  },
  {
    header: 'Last applied',
    render: (s) =>
      s.lastApplied ? (
        <>
          <Text size="sm" span display="block">
            {formatDate(s.lastApplied.appliedAt)}
          </Text>
          <Text size="xs" c="dimmed" span display="block" style={{ overflowWrap: 'anywhere' }}>
            {s.lastApplied.fileName} ({lastAppliedKind[s.lastApplied.kind]},{' '}
            {countOf(s.lastApplied.rowCount, 'row', 'rows')})
          </Text>
        </>
      ) : (
        'Never'
      ),
  },
  {
    header: 'Status',
    render: (s) => {
      const stale = staleText(s);
      return stale ? (
        <>
          <Badge color={badgeColor.orange} variant="filled">
            Stale
          </Badge>
          <Text size="xs" span display="block" mt={4}>
            {stale}
          </Text>
        </>
      ) : (
        <Badge color={badgeColor.green} variant="filled">
          Current
        </Badge>
      );
    },
  },
];

/** The tab's content; queries only while the tab is shown. */
export function ExclusionsTab({ enabled, canAct }: { enabled: boolean; canAct: boolean }) {
  const overview = useExclusionsOverview(enabled);
  const stage = useStageImport();
  const applyImport = useApplyImport();
  const discard = useDiscardImport();
  const [percent, setPercent] = useState<number | null>(null);
  // The import whose reason is asked for stays while its dialog closes (its text must not change).
  const [needsReason, setNeedsReason] = useState<StagedImport | null>(null);
  const [reasonOpen, setReasonOpen] = useState(false);
  const [discarding, setDiscarding] = useState<StagedImport | null>(null);
  const [discardOpen, setDiscardOpen] = useState(false);
  const resetFile = useRef<() => void>(null);

  const upload = (file: File | null) => {
    if (!file) return;
    setPercent(0);
    stage.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: (staged) =>
          notifySuccess(
            'File Read',
            `${staged.fileName}: ${staged.formatLabel}, ${countOf(staged.rowCount, 'row', 'rows')}. Check the summary, then Apply.`,
          ),
        onError: (error) => notifyError('File Not Imported', error.message),
        onSettled: () => {
          setPercent(null);
          // The same file may be chosen again (after a Discard): clear the input.
          resetFile.current?.();
        },
      },
    );
  };

  /** Apply `staged`; a failure is reported (and thrown, so a reason dialog stays open). */
  const apply = async (staged: StagedImport, reason?: string) => {
    try {
      const result = await applyImport.mutateAsync({
        importId: staged.id,
        body: reason === undefined ? {} : { reason },
      });
      notifySuccess('Exclusion List Updated', applyResultText(result), { autoClose: 10_000 });
    } catch (error) {
      if (!(error instanceof ApiError && error.issues.length > 0))
        notifyError('List Not Updated', error instanceof Error ? error.message : 'The file was not applied.');
      throw error;
    }
  };

  const confirmDiscard = (staged: StagedImport) =>
    discard.mutate(staged.id, {
      onSuccess: () =>
        notifySuccess('Import Discarded', `${staged.fileName} was discarded; the list is unchanged.`),
      onError: (error) => notifyError('Import Not Discarded', error.message),
      onSettled: () => setDiscardOpen(false),
    });

  return (
    <Stack gap="lg">
      <Stack gap="sm" component="section" aria-labelledby="exclusion-sources-title">
        <Title order={2} size="h4" id="exclusion-sources-title">
          Exclusion Lists
        </Title>
        <Text size="sm">
          Download each list from its publisher and import it here. A file is read first and shown with its
          rows and a sample; the list changes only when you press Apply. After each Apply, every provider
          under review or approved is screened against every list.
        </Text>
        {canAct && (
          <div>
            <FileButton onChange={upload} accept={LIST_FILE_ACCEPT} resetRef={resetFile}>
              {(props) => (
                <Button
                  {...props}
                  leftSection={<IconUpload size={16} aria-hidden="true" />}
                  loading={stage.isPending}
                >
                  Import File
                </Button>
              )}
            </FileButton>
          </div>
        )}
        {percent !== null && (
          <Stack gap={4}>
            <Text size="sm" id="exclusion-upload-progress" role="status">
              {percent < 100 ? `Uploading... ${percent}%` : 'Reading the file...'}
            </Text>
            <Progress.Root>
              <Progress.Section value={percent} aria-labelledby="exclusion-upload-progress" />
            </Progress.Root>
          </Stack>
        )}
        {overview.isPending ? (
          <InlineLoader label="Loading the exclusion lists..." />
        ) : overview.isError ? (
          <Text>The exclusion lists could not be loaded. Reload the page to try again.</Text>
        ) : overview.data.sources.length === 0 ? (
          <Text c="dimmed">No exclusion sources are set up.</Text>
        ) : (
          <ResponsiveTable
            rows={overview.data.sources}
            columns={sourceColumns}
            rowKey={(s) => s.id}
            label="Exclusion list sources"
            caption
            minWidth={820}
          />
        )}
        {overview.data?.stateCoverage && (
          <Stack gap={2}>
            {stateCoverageText(overview.data.stateCoverage).map((line) => (
              <Text size="sm" key={line}>
                {line}
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
      {overview.data && overview.data.staged.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="staged-imports-title">
          <Title order={2} size="h4" id="staged-imports-title">
            Imports Waiting to Be Applied
          </Title>
          <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {overview.data.staged.map((staged) => (
              <StagedImportCard
                key={staged.id}
                staged={staged}
                applying={applyImport.isPending && applyImport.variables?.importId === staged.id}
                discarding={discard.isPending && discard.variables === staged.id}
                onApply={
                  canAct
                    ? (s) => {
                        if (s.needsReason) {
                          setNeedsReason(s);
                          setReasonOpen(true);
                        } else apply(s).catch(() => {});
                      }
                    : undefined
                }
                onDiscard={
                  canAct
                    ? (s) => {
                        setDiscarding(s);
                        setDiscardOpen(true);
                      }
                    : undefined
                }
              />
            ))}
          </Stack>
        </Stack>
      )}
      <ReasonDialog
        opened={reasonOpen && needsReason !== null}
        title="Apply with a reason"
        submitLabel="Apply"
        destructive
        maxLength={SCREENING_REASON_MAX}
        description={`At most ${SCREENING_REASON_MAX} characters; kept in the audit log.`}
        schema={requiredApplyReasonSchema}
        onSubmit={(reason) => (needsReason ? apply(needsReason, reason) : Promise.resolve())}
        onClose={() => setReasonOpen(false)}
      >
        <Text size="sm">{needsReason?.needsReason}</Text>
      </ReasonDialog>
      <ConfirmDialog
        opened={discardOpen && discarding !== null}
        title="Discard this import?"
        confirmLabel="Discard"
        busy={discard.isPending}
        onConfirm={() => discarding && confirmDiscard(discarding)}
        onCancel={() => setDiscardOpen(false)}
      >
        {discarding
          ? `${discarding.fileName} will be discarded without changing the ${discarding.sourceLabel} list. Import the file again to apply it later.`
          : ''}
      </ConfirmDialog>
    </Stack>
  );
}
