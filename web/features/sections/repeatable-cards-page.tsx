/**
 * The repeatable-cards layout (spec §2 "Repeatable-card screens", §7, §8): professional licenses,
 * education, work history, malpractice insurance, vaccinations, and the five sections of issue 31
 * (specialties, practice locations, hospital affiliations, training, malpractice claims).
 *
 * - One card per saved row, in saved order; one empty card when there is none. The add button (registry
 *   `addLabel`) appends an empty card; a card's trash button shows only while more than one card exists.
 * - Removing a saved card asks first, then deletes it on the server (a failed delete is only logged,
 *   spec §8 "Silent handling") and reloads the list (spec §4): the reloaded rows decide which saved
 *   cards exist, while the values typed on the other cards and the unsaved cards stay. Removing an
 *   unsaved card just drops it.
 * - 'Save & Continue' validates every card with the section's zod schema and saves all cards with one PUT,
 *   which the server applies atomically. A 400 names the card (`issues[].path` ['rows', 1, 'issueDate']):
 *   the error shows on that card's field and in the summary. Success toasts (plus the screen's
 *   `savedNotices`, issue 51 item 3) and returns to /dashboard.
 * - A section's `rowsRule` (issue 31: one primary specialty, a none answer alone) runs over the cards
 *   with the schema, before any request, and shows its message on the card and field it names.
 * - A section with a `noneAnswer` (issue 31: 'No claims in the last 10 years') shows it as a checkbox
 *   above the cards. Checked, it stands for the section's one row (a card with only that field true,
 *   saved by 'Save & Continue'); no card shows and the add button is off. It can be checked only while
 *   no card is saved or filled in (a saved card there can be removed even when it is the only one);
 *   unchecking a saved answer deletes its row at once, like removing a card (an empty card shows at
 *   once; a failed delete puts the answer back).
 */
import { ActionIcon, Button, Card, Checkbox, Group, Stack, Title } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { isoDay } from '../../../domain/calendar.ts';
import {
  type RepeatableSection,
  type RepeatableSectionKey,
  sectionByKey,
} from '../../../domain/sections/registry.ts';
import type { NoneAnswer } from '../../../domain/sections/section.ts';
import { ApiError, isNotFound } from '../../api.ts';
import { ApplicationNotFound } from '../../components/application-not-found.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { useUnsavedChangesGuard } from '../../forms/unsaved-changes.tsx';
import { issuesToFormErrors, toFormValues, zodValidate } from '../../forms/zod-form.ts';
import { notifyError, notifyNotice, notifySuccess } from '../../notify.ts';
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

const newCard = (screen: RepeatableScreen, values: FormValues = screen.empty): CardValues => ({
  ...values,
  id: '',
  cardKey: randomId(),
});
/** A card added with the add button: the screen's `nextEmpty` for the cards on screen, else `empty`. */
const addedCard = (screen: RepeatableScreen, cards: readonly CardValues[]): CardValues =>
  newCard(screen, screen.nextEmpty ? screen.nextEmpty(cards, screen.empty) : screen.empty);
/** The card that gives a section's none answer (issue 31): only `answer.field`, true. */
const answerCard = (screen: RepeatableScreen, answer: NoneAnswer): CardValues =>
  newCard(screen, { ...screen.empty, [answer.field]: true });
/** Whether a card holds anything a new card does not (something typed in it). */
const hasContent = (screen: RepeatableScreen, card: CardValues): boolean =>
  Object.keys(screen.empty).some((field) => card[field] !== screen.empty[field]);
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

/**
 * The form's validate function: each card against the section's schema (`rows.<index>.<field>`), then
 * the section's `rowsRule` over every card (the schema's output where a card parses, its values where
 * not), its message on the card and field it names. The server applies the same rules (issue 31).
 */
function validateCards(section: RepeatableSection): (values: CardsFormValues) => FormErrors {
  const schemaErrors = zodValidate<CardsFormValues>(z.object({ rows: z.array(section.schema) }));
  return (values) => {
    const errors = schemaErrors(values);
    const issue = section.rowsRule?.(
      values.rows.map((card) => {
        const parsed = section.schema.safeParse(card);
        return parsed.success ? (parsed.data as Record<string, unknown>) : card;
      }),
    );
    if (!issue) return errors;
    const path = ['rows', issue.index, ...(issue.field ? [issue.field] : [])].join('.');
    return { [path]: issue.message, ...errors };
  };
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
  const answer = section.noneAnswer;
  /** The cards the none answer replaced, given back if it is unchecked before being saved. */
  const replacedByAnswer = useRef<CardValues[] | null>(null);

  const form = useForm<CardsFormValues>({
    initialValues: {
      rows: savedRows.length > 0 ? savedRows.map((row) => savedCard(screen, row)) : [newCard(screen)],
    },
    validate: validateCards(section),
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

  /** Removes a card; the last one gives way to an empty card (the screen never shows no card). */
  const dropCard = (cardKey: string) => {
    const rows = form.getValues().rows;
    const index = rows.findIndex((card) => card.cardKey === cardKey);
    if (index < 0) return;
    if (rows.length === 1) form.setFieldValue('rows', [newCard(screen)]);
    else form.removeListItem('rows', index);
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
        // Issue 51 item 3: what the saved cards mean for the provider (the day is the browser's).
        const notices = screen.savedNotices;
        for (const notice of notices?.of(rows as FormValues[], isoDay(new Date())) ?? []) {
          notifyNotice(notices!.title, notice);
        }
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

  // The none answer (issue 31): its card's index, and whether another card is saved or filled in.
  const answerIndex = answer ? cards.findIndex((card) => card[answer.field] === true) : -1;
  const answered = answerIndex >= 0;
  const answerBlocked =
    answer !== undefined &&
    cards.some((card, index) => index !== answerIndex && (card.id !== '' || hasContent(screen, card)));

  const chooseAnswer = (checked: boolean) => {
    if (!answer) return;
    if (checked) {
      replacedByAnswer.current = form.getValues().rows;
      form.setFieldValue('rows', [answerCard(screen, answer)]);
      return;
    }
    const card = cards[answerIndex];
    if (!card) return;
    if (!card.id) {
      form.setFieldValue('rows', replacedByAnswer.current ?? [newCard(screen)]);
      replacedByAnswer.current = null;
      return;
    }
    // Unchecked at once, an empty card in its place; the saved row is deleted meanwhile.
    const blank = newCard(screen);
    form.setFieldValue('rows', [blank]);
    deleteRow.mutate(card.id, {
      // A delete is saved at once: the empty card in its place is no unsaved edit (issue 17 guard).
      onSuccess: () => form.resetDirty({ rows: [blank] }),
      // Spec §8: a failed delete is only logged; the saved answer shows checked again.
      onError: (error) => {
        console.warn(`Could not delete the saved answer '${answer.label}':`, error.message);
        form.setFieldValue('rows', [card]);
      },
    });
  };

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
        {answer && (
          <SectionFieldset>
            <Checkbox
              size="md"
              label={answer.label}
              checked={answered}
              disabled={deleteRow.isPending || (!answered && answerBlocked)}
              description={
                !answered && answerBlocked
                  ? `To choose this, first remove or clear every ${noun} below.`
                  : undefined
              }
              error={answered ? form.errors[`rows.${answerIndex}.${answer.field}`] : undefined}
              onChange={(event) => chooseAnswer(event.currentTarget.checked)}
            />
          </SectionFieldset>
        )}
        {cards.map((card, index) => {
          if (index === answerIndex) return null;
          const titleId = `card-${card.cardKey}-title`;
          const cardLabel = `${screen.noun} ${index + 1}`;
          return (
            <Card key={card.cardKey} withBorder padding="lg" component="section" aria-labelledby={titleId}>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4" id={titleId}>
                  {cardLabel}
                </Title>
                {/* A section with a none answer lets its one saved or filled-in card go too. */}
                {!readOnly &&
                  (cards.length > 1 || (answer && (card.id !== '' || hasContent(screen, card)))) && (
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
            disabled={answered}
            onClick={() => form.insertListItem('rows', addedCard(screen, form.getValues().rows))}
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
