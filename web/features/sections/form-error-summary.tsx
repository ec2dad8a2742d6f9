/**
 * The list of what is wrong in a form, announced when it appears (role="alert"), so a keyboard or
 * screen-reader user learns which card and field to fix ("License 2, Issue Date: Enter a valid date").
 */
import { Alert, List } from '@mantine/core';
import type { FormErrors } from '@mantine/form';

/** Field name -> label, from the registry's field list (the labels the form shows). */
export function fieldLabels(fields: readonly { name: string; label: string }[]): Map<string, string> {
  return new Map(fields.map((field) => [field.name, field.label]));
}

export function FormErrorSummary({
  errors,
  describePath,
}: {
  errors: FormErrors;
  /** How a person reads an error's form path, e.g. 'rows.1.issueDate' -> 'License 2, Issue Date'. */
  describePath: (path: string) => string;
}) {
  const entries = Object.entries(errors).filter(([, message]) => Boolean(message));
  if (entries.length === 0) return null;
  return (
    <Alert color="red" variant="light" title="Please correct the highlighted fields" role="alert">
      <List size="sm">
        {entries.map(([path, message]) => {
          const where = describePath(path);
          return (
            <List.Item key={path}>
              {where ? `${where}: ` : ''}
              {message}
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}
