/**
 * The repeatable-cards layout (spec §2 "Repeatable-card screens", §7, §8): professional licenses,
 * education, work history, malpractice insurance, vaccinations.
 *
 * - One card per saved row, in saved order; one empty card when there is none. The add button (registry
 *   `addLabel`) appends an empty card; a card's trash button shows only while more than one card exists.
 * - Removing a saved card asks first, then deletes it on the server (a failed delete is only logged,
 *   spec §8 "Silent handling"); removing an unsaved card just drops it.
 * - 'Save & Continue' validates every card with the section's zod schema and saves all cards with one PUT,
 *   which the server applies atomically. A 400 names the card (`issues[].path` ['rows', 1, 'issueDate']):
 *   the error shows on that card's field and in the summary. Success toasts and returns to /dashboard.
 */
import { ActionIcon, Button, Card, Group, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { type RepeatableSectionKey, sectionByKey } from '../../../domain/sections/registry.ts';
import { ApiError } from '../../api.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { FormErrorSummary, fieldLabels } from './form-error-summary.tsx';
import type { ApiRow, FormValues, RepeatableScreen } from './screen-types.ts';
import { SaveCancelFooter, SectionLoadFailed, SectionPageShell } from './section-page-shell.tsx';
import { repeatableScreens } from './section-screens.ts';
import { useDeleteRow, useSaveCards, useSectionRows } from './sections-api.ts';
import { issuesToFormErrors, toFormValues, zodValidate } from './zod-form.ts';

/** One card's form values: the section's fields, plus the saved row id ('' when unsaved) and a React key. */
type CardValues = FormValues & { id: string; cardKey: string };
interface CardsFormValues {
  rows: CardValues[];
}

const newCard = (screen: RepeatableScreen): CardValues => ({ ...screen.empty, id: '', cardKey: randomId() });

function CardsForm({
  applicationId,
  sectionKey,
  savedRows,
}: {
  applicationId: string;
  sectionKey: RepeatableSectionKey;
  savedRows: ApiRow[];
}) {
  const section = sectionByKey[sectionKey];
  const screen = repeatableScreens[sectionKey];
  const noun = screen.noun.toLowerCase();
  const labels = fieldLabels(section.fields);
  const navigate = useNavigate();
  const save = useSaveCards(applicationId, sectionKey);
  const deleteRow = useDeleteRow(applicationId, sectionKey, false);
  const [confirming, setConfirming] = useState<CardValues | null>(null);

  const form = useForm<CardsFormValues>({
    initialValues: {
      rows:
        savedRows.length > 0
          ? savedRows.map((row) => ({ ...toFormValues(screen.empty, row), id: row.id, cardKey: row.id }))
          : [newCard(screen)],
    },
    validate: zodValidate(z.object({ rows: z.array(section.schema) })),
  });
  const cards = form.values.rows;

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
      // Spec §8: a failed delete of a saved card is only logged.
      onError: (error) => console.warn(`Could not delete a saved ${noun} card:`, error.message),
      onSettled: () => {
        dropCard(card.cardKey);
        setConfirming(null);
      },
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
                {cards.length > 1 && (
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
              <screen.Fields
                input={(name, options) => form.getInputProps(`rows.${index}.${name}`, options)}
                values={card}
                setValue={(name, value) => form.getInputProps(`rows.${index}.${name}`).onChange(value)}
              />
            </Card>
          );
        })}
        <div>
          <Button
            variant="light"
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
    </form>
  );
}

export default function RepeatableCardsPage({ sectionKey }: { sectionKey: RepeatableSectionKey }) {
  const { applicationId = '' } = useParams();
  const section = sectionByKey[sectionKey];
  const query = useSectionRows(applicationId, sectionKey);
  useEffect(() => {
    if (query.isError) notifyError('Error', section.messages.loadError ?? section.messages.saveError);
  }, [query.isError, section]);

  return (
    <SectionPageShell section={section}>
      {query.isPending ? (
        <InlineLoader size="sm" />
      ) : query.isError ? (
        <SectionLoadFailed />
      ) : (
        <CardsForm applicationId={applicationId} sectionKey={sectionKey} savedRows={query.data} />
      )}
    </SectionPageShell>
  );
}
