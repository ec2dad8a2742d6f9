/**
 * The bridge between the sections' zod schemas (domain/sections/*, the same ones the server uses) and
 * @mantine/form: a validate function built from a schema, server issues turned into form errors, and
 * API rows turned into form values. Form error keys are @mantine/form paths: `rows.1.issueDate`.
 */
import type { FormErrors } from '@mantine/form';
import { type $ZodType, safeParse } from 'zod/v4/core';
import '../zod-config.ts';

/** One value of a form input: text, select and date inputs hold strings, checkboxes booleans, number inputs numbers or ''. */
export type FormValue = string | number | boolean;
export type FormValues = Record<string, FormValue>;

/**
 * Field errors (from zod, or `ApiError.issues` of a 400) keyed by @mantine/form path (`['rows', 1, 'issueDate']` -> `'rows.1.issueDate'`); the first
 * message of a path wins. An issue without a path is kept under `''` (no input shows it; summaries can).
 */
export function issuesToFormErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/**
 * A @mantine/form `validate` function that parses the form values with `schema` (a zod or zod/mini
 * schema: both share zod's core, whose `safeParse` runs either).
 * @param prepare turns form values into the schema's input first (default: as they are)
 * @returns {} when valid, else the field errors (see `issuesToFormErrors`)
 */
export function zodValidate<Values>(
  schema: $ZodType,
  prepare: (values: Values) => unknown = (values) => values,
): (values: Values) => FormErrors {
  return (values) => {
    const result = safeParse(schema, prepare(values));
    return result.success ? {} : issuesToFormErrors(result.error.issues);
  };
}

/**
 * Form values for a stored row: every key of `empty`, taken from `row` unless the row has null or
 * nothing there (null dates and texts become '', so inputs stay controlled).
 */
export function toFormValues<Values extends FormValues>(
  empty: Values,
  row: Readonly<Record<string, unknown>> | null | undefined,
): Values {
  const values: FormValues = { ...empty };
  if (!row) return values as Values;
  for (const key of Object.keys(empty)) {
    const value = row[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      values[key] = value;
    }
  }
  return values as Values;
}
