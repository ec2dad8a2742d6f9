/**
 * The repeatable-cards layout (spec §2 "Repeatable-card screens", §7, §8): professional licenses,
 * education, work history, malpractice insurance, vaccinations.
 *
 * - One card per saved row, in saved order; one empty card when there is none. The add button (registry
 *   `addLabel`) appends an empty card; a card's trash button shows only while more than one card exists.
 * - Removing a saved card asks first, then deletes it on the server (a failed delete is only logged,
 *   spec §8 "Silent handling") and reloads the list (spec §4): the reloaded rows decide which saved
 *   cards exist, while the values typed on the other cards and the unsaved cards stay. Removing an
 *   unsaved card just drops it.
 * - 'Save & Continue' validates every card with the section's zod schema and saves all cards with one PUT,
 *   which the server applies atomically. A 400 names the card (`issues[].path` ['rows', 1, 'issueDate']):
 *   the error shows on that card's field and in the summary. Success toasts and returns to /dashboard.
 */
import { ActionIcon, Button, Card, Group, Stack, Title } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { type RepeatableSectionKey, sectionByKey } from '../../../domain/sections/registry.ts';
import { ApiError, isNotFound } from '../../api.ts';
import { ApplicationNotFound } from '../../components/application-not-found.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { useUnsavedChangesGuard } from '../../forms/unsaved-changes.tsx';
import { issuesToFormErrors, toFormValues, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { FormErrorSummary, fieldLabels } from './form-error-summary.tsx';
import type { ApiRow, FormValues, RepeatableScreen } from './screen-types.ts';
import {
  SaveCancelFooter,
  SectionFieldset,
  SectionLoadFailed,
  SectionPageShell,
  useSectionReadOnly,
} from './section-page-shell.tsx';
import { repeatableScreens } from './section-screens.ts';
import { useDeleteRow, useSaveCards, useSectionRows } from './sections-api.ts';

/** One card's form values: the section's fields, plus the saved row id ('' when unsaved) and a React key. */
type CardValues = FormValues & { id: string; cardKey: string };
interface CardsFormValues {
  rows: CardValues[];
}

const newCard = (screen: RepeatableScreen): CardValues => ({ ...screen.empty, id: '', cardKey: randomId() });
const savedCard = (screen: RepeatableScreen, row: ApiRow): CardValues => ({
  ...toFormValues(screen.empty, row),
  id: row.id,
  cardKey: row.id,
});

/**
 * The cards after the list is reloaded (spec §4): one card per saved row, in the server's order, then
 * the unsaved cards. A saved card still on the server keeps the values typed on it; a card whose row
 * is gone (deleted here or in another tab) goes; a row saved elsewhere gets a card. Never no card.
 */
function reconcileCards(
  cards: readonly CardValues[],
  savedRows: readonly ApiRow[],
  screen: RepeatableScreen,
): CardValues[] {
  const shown = new Map(cards.filter((card) => card.id).map((card) => [card.id, card]));
  const next = [
    ...savedRows.map((row) => shown.get(row.id) ?? savedCard(screen, row)),
    ...cards.filter((card) => !card.id),
  ];
  return next.length > 0 ? next : [newCard(screen)];
}

/** Form errors (`rows.<index>.<field>`) moved to the cards' new indexes; a removed card's errors go. */
function moveCardErrors(
  errors: FormErrors,
  before: readonly CardValues[],
  after: readonly CardValues[],
): FormErrors {
  const indexOf = new Map(after.map((card, index) => [card.cardKey, index]));
  const moved: FormErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const match = /^rows\.(\d+)\.(.+)$/.exec(path);
    if (!match) {
      moved[path] = message;
      continue;
    }
    const index = indexOf.get(before[Number(match[1])]?.cardKey ?? '');
    if (index !== undefined) moved[`rows.${index}.${match[2]}`] = message;
  }
  return moved;
}

function CardsForm({
  applicationId,
  sectionKey,
  savedRows,
  loadedAt,
}: {
  applicationId: string;
  sectionKey: RepeatableSectionKey;
  savedRows: ApiRow[];
  /** When `savedRows` were (re)loaded: a new value means the list was reloaded. */
  loadedAt: number;
}) {
  const readOnly = useSectionReadOnly();
  const section = sectionByKey[sectionKey];
  const screen = repeatableScreens[sectionKey];
  const noun = screen.noun.toLowerCase();
  const labels = fieldLabels(section.fields);
  const navigate = useNavigate();
  const save = useSaveCards(applicationId, sectionKey);
  const deleteRow = useDeleteRow(applicationId, sectionKey);
  const [confirming, setConfirming] = useState<CardValues | null>(null);

  const form = useForm<CardsFormValues>({
    initialValues: {
      rows: savedRows.length > 0 ? savedRows.map((row) => savedCard(screen, row)) : [newCard(screen)],
    },
    validate: zodValidate(z.object({ rows: z.array(section.schema) })),
  });
  const cards = form.values.rows;
  const guard = useUnsavedChangesGuard(form.isDirty());

  // A reloaded list (after a delete, spec §4) is merged into the cards. The rows a save answers with
  // are not: the screen is left for the dashboard, and the unsaved cards now have saved twins.
  const mergedLoad = useRef(loadedAt);
  useEffect(() => {
    if (mergedLoad.current === loadedAt) return;
    mergedLoad.current = loadedAt;
    if (save.isPending || save.isSuccess) return;
    const before = form.getValues().rows;
    const after = reconcileCards(before, savedRows, screen);
    if (after.map((card) => card.cardKey).join() === before.map((card) => card.cardKey).join()) return;
    // A delete is saved at once: merging its result is no unsaved edit (issue 17 guard).
    const wasDirty = form.isDirty();
    form.setValues({ rows: after });
    if (!wasDirty) form.resetDirty({ rows: after });
    form.setErrors(moveCardErrors(form.errors, before, after));
  }, [loadedAt, savedRows, screen, form, save.isPending, save.isSuccess]);

  const dropCard = (cardKey: string) => {
    const index = form.getValues().rows.findIndex((card) => card.cardKey === cardKey);
    if (index >= 0) form.removeListItem('rows', index);
  };

  const remove = (card: CardValues) => {
    if (card.id) setConfirming(card);
    else dropCard(card.cardKey);
  };

  const confirmRemove = () => {
    if (!confirming) return;
    const card = confirming;
    deleteRow.mutate(card.id, {
      // The reloaded list has usually dropped the card already; this covers a reload that failed.
      onSuccess: () => dropCard(card.cardKey),
      // Spec §8: a failed delete of a saved card is only logged (the reloaded list still shows it).
      onError: (error) => console.warn(`Could not delete a saved ${noun} card:`, error.message),
      onSettled: () => setConfirming(null),
    });
  };

  const submit = form.onSubmit((values) => {
    const rows = values.rows.map(({ id, cardKey: _cardKey, ...fields }) => {
      const parsed = section.schema.parse(fields);
      return id ? { id, ...parsed } : parsed;
    });
    save.mutate(rows, {
      onSuccess: () => {
        notifySuccess('Success', section.messages.saveSuccess);
        guard.allowNavigation();
        navigate('/dashboard');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.issues.length > 0) {
          form.setErrors(issuesToFormErrors(error.issues));
        }
        notifyError('Error', section.messages.saveError);
      },
    });
  });

  /** 'rows.1.issueDate' -> 'License 2, Issue Date'. */
  const describeCardPath = (path: string) => {
    const [, index, field] = path.split('.');
    const card = index === undefined ? '' : `${screen.noun} ${Number(index) + 1}`;
    return [card, field && (labels.get(field) ?? field)].filter(Boolean).join(', ');
  };

  return (
    <form onSubmit={submit} noValidate aria-label={section.title}>
      <Stack>
        <FormErrorSummary errors={form.errors} describePath={describeCardPath} />
        {cards.map((card, index) => {
          const titleId = `card-${card.cardKey}-title`;
          const cardLabel = `${screen.noun} ${index + 1}`;
          return (
            <Card key={card.cardKey} withBorder padding="lg" component="section" aria-labelledby={titleId}>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4" id={titleId}>
                  {cardLabel}
                </Title>
                {cards.length > 1 && !readOnly && (
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    aria-label={`Remove ${noun} ${index + 1}`}
                    onClick={() => remove(card)}
                  >
                    <IconTrash size={18} aria-hidden="true" />
                  </ActionIcon>
                )}
              </Group>
              <SectionFieldset>
                <screen.Fields
                  input={(name, options) => form.getInputProps(`rows.${index}.${name}`, options)}
                  values={card}
                  setValue={(name, value) => form.getInputProps(`rows.${index}.${name}`).onChange(value)}
                  cards={cards}
                  index={index}
                />
              </SectionFieldset>
            </Card>
          );
        })}
        <div hidden={readOnly}>
          {/* 'default' (dark text on white): the light variant's indigo text failed AA contrast in axe. */}
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => form.insertListItem('rows', newCard(screen))}
          >
            {section.addLabel}
          </Button>
        </div>
        <SaveCancelFooter saving={save.isPending} />
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        title={`Remove ${noun}`}
        busy={deleteRow.isPending}
        confirmLabel="Remove"
        onConfirm={confirmRemove}
        onCancel={() => setConfirming(null)}
      >
        Remove this saved {noun}? It is deleted from your application right away.
      </ConfirmDialog>
      {guard.dialog}
    </form>
  );
}

export default function RepeatableCardsPage({ sectionKey }: { sectionKey: RepeatableSectionKey }) {
  const { applicationId = '' } = useParams();
  const section = sectionByKey[sectionKey];
  const query = useSectionRows(applicationId, sectionKey);
  useEffect(() => {
    if (query.isError && !isNotFound(query.error)) {
      notifyError('Error', section.messages.loadError ?? section.messages.saveError);
    }
  }, [query.isError, query.error, section]);

  return (
    <SectionPageShell section={section}>
      {query.isPending ? (
        <InlineLoader size="sm" />
      ) : query.data === undefined && isNotFound(query.error) ? (
        <ApplicationNotFound />
      ) : query.data === undefined ? (
        <SectionLoadFailed />
      ) : (
        // A failed reload keeps the cards (and the toast above says the list could not be loaded).
        <CardsForm
          applicationId={applicationId}
          sectionKey={sectionKey}
          savedRows={query.data}
          loadedAt={query.dataUpdatedAt}
        />
      )}
    </SectionPageShell>
  );
}
