/**
 * What each section screen supplies to its layout's page (style.md "Eleven similar sections": generic
 * mechanics, explicit content). A section's file under `fields/` holds its fields component (field order,
 * labels, help text, conditional fields, in JSX) and its screen description; the pages hold the mechanics
 * (loading, saving, toasts, errors, cards, table).
 */
import type { GetInputPropsReturnType } from '@mantine/form';
import type { ComponentType } from 'react';
import type { SectionRowDto } from '../../../domain/api/sections.ts';
import type { TableColumn } from '../../components/responsive-table.tsx';
import type { FormValue, FormValues } from '../../forms/zod-form.ts';

/** What a fields component gets: the bound inputs of one card or form, its values and a setter. */
export interface FieldsProps<Values extends FormValues> {
  /** Props for the input bound to field `name` (value or checked, onChange, error, onFocus, onBlur). */
  input: (name: keyof Values & string, options?: { type: 'checkbox' }) => GetInputPropsReturnType;
  /** Current values, for conditional fields. */
  values: Values;
  setValue: <Name extends keyof Values & string>(name: Name, value: Values[Name]) => void;
  /**
   * Repeatable cards only: every card's values in screen order, and this card's index, for rules that
   * read across cards (work-history gaps, issue 29 item 7). Undefined on the other layouts.
   */
  cards?: readonly Values[];
  index?: number;
}

/** A screen's fields component, with the form values erased to the generic shape the pages use. */
type AnyFields = ComponentType<FieldsProps<FormValues>>;

/**
 * The single-record section (spec §2 "Personal information screen"). Its form values may differ from the
 * schema's input (personal information keeps the provider-type choice and the custom text apart).
 */
export interface SingleFormScreen<Values extends FormValues, Saved> {
  /** Form values for the saved record, or the empty form when there is none yet. */
  toFormValues: (saved: Saved | null) => Values;
  /** The request body (the section schema's input) for the form values. */
  toInput: (values: Values) => Record<string, unknown>;
  /**
   * Form errors keyed by form path, from errors keyed by schema field (client zod issues or the server's
   * 400 issues), plus any rule of the form itself.
   */
  toFormErrors: (schemaErrors: Record<string, string>, values: Values) => Record<string, string>;
  Fields: ComponentType<FieldsProps<Values>>;
}

/** A repeatable-card section (spec §2 "Repeatable-card screens"). */
export interface RepeatableScreen {
  /** Card heading noun: 'License' -> 'License 2'; 'Remove license 2'. */
  noun: string;
  /** Values of a new card (defaults such as license status 'active' included). */
  empty: FormValues;
  /**
   * Values of a card added with the add button, given the cards on screen, when they depend on them
   * (issue 31: a specialty added after a primary one is secondary). Default: `empty`.
   */
  nextEmpty?: (cards: readonly FormValues[], empty: FormValues) => FormValues;
  /**
   * What the provider is told once the cards are saved, beside the success toast (issue 51 item 3: a
   * malpractice policy that has not started yet), given the saved cards and today (ISO day). Each
   * notice is one toast titled `title`. Default: none.
   */
  savedNotices?: { title: string; of: (cards: readonly FormValues[], today: string) => string[] };
  Fields: AnyFields;
}

/** One table column of an add-form-plus-table screen (the responsive table's column type, issue 17). */
export type { TableColumn } from '../../components/responsive-table.tsx';

/** A row as the list API returns it: the section's fields plus `id` and `createdAt` (domain/api/sections.ts). */
export type ApiRow = SectionRowDto;

/** An add-form-plus-table section (spec §2 "Payors, certifications, CME, peer references screens"). */
export interface AddFormTableScreen {
  /** Lower-case noun of one row for delete labels and dialogs: 'payor' -> 'Delete payor Aetna'. */
  noun: string;
  /** Heading of the add form, also its submit label: 'Add Payor'. */
  addLabel: string;
  /** Heading of the table of saved rows. */
  listTitle: string;
  /** Values of the empty add form (defaults such as credentialing status 'pending' included). */
  empty: FormValues;
  Fields: AnyFields;
  columns: TableColumn<ApiRow>[];
  /** How a row is named to a person (delete button label, confirmation). */
  rowName: (row: ApiRow) => string;
}

/**
 * Declares a repeatable-card screen with its own values type checked against its fields component.
 * The values type is erased here: the page only passes values through (`as` is sound because the page
 * builds every value from `empty`).
 */
export function defineRepeatableScreen<Values extends FormValues>(screen: {
  noun: string;
  empty: Values;
  nextEmpty?: (cards: readonly Values[], empty: Values) => Values;
  savedNotices?: { title: string; of: (cards: readonly Values[], today: string) => string[] };
  Fields: ComponentType<FieldsProps<Values>>;
}): RepeatableScreen {
  return screen as unknown as RepeatableScreen;
}

/** Declares an add-form-plus-table screen; see `defineRepeatableScreen` for the erased values type. */
export function defineAddFormTableScreen<Values extends FormValues, Row extends ApiRow>(screen: {
  noun: string;
  addLabel: string;
  listTitle: string;
  empty: Values;
  Fields: ComponentType<FieldsProps<Values>>;
  columns: TableColumn<Row>[];
  rowName: (row: Row) => string;
}): AddFormTableScreen {
  return screen as unknown as AddFormTableScreen;
}

export type { FormValue, FormValues };
