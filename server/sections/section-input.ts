/**
 * Validating a section request body with the section's own zod schema (the same schema the web form
 * uses), and turning failures into one 400 `validation_failed` whose `issues[].path` names the card
 * and field (`['rows', 1, 'issueDate']`) and whose message a person can act on
 * ("Entry 2, Issue Date: Enter a valid date (YYYY-MM-DD)").
 */
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { AppError, type FieldIssue, toFieldIssues } from '../../domain/app-error.ts';
import { unstorableValueIssues } from './section-columns.ts';

/** Most issues spelled out in the message (all of them are in `issues`). */
const MESSAGE_ISSUES_MAX = 5;

/** `rows.1.issueDate` as a person reads it: 'Entry 2, Issue Date'. */
function describePath(path: FieldIssue['path'], labels: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    if (part === 'rows' && typeof path[i + 1] === 'number') {
      parts.push(`Entry ${(path[i + 1] as number) + 1}`);
      i++;
    } else {
      parts.push(typeof part === 'string' ? (labels.get(part) ?? part) : String(part));
    }
  }
  return parts.join(', ');
}

/** The 400 for `issues`; `labels` maps field names to their screen labels. */
export function validationError(issues: FieldIssue[], labels: ReadonlyMap<string, string>): AppError {
  const described = issues.slice(0, MESSAGE_ISSUES_MAX).map((issue) => {
    const where = describePath(issue.path, labels);
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  const more = issues.length > MESSAGE_ISSUES_MAX ? ` (and ${issues.length - MESSAGE_ISSUES_MAX} more)` : '';
  return new AppError(
    'validation_failed',
    `Please correct the highlighted fields: ${described.join('; ')}${more}`,
    {
      issues,
    },
  );
}

/**
 * Parse `body` with `schema`. Unknown keys are stripped by zod objects.
 * @throws AppError validation_failed (400) with every issue
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
  labels: ReadonlyMap<string, string>,
): z.output<Schema> {
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(toFieldIssues(result.error), labels);
  return result.data;
}

/**
 * Refuse values PostgreSQL cannot store (see `unstorableValueIssues`), for each row at `pathOf(index)`.
 * @throws AppError validation_failed (400)
 */
export function assertStorable(
  rows: Record<string, unknown>[],
  columns: Record<string, PgColumn>,
  labels: ReadonlyMap<string, string>,
  pathOf: (index: number) => (string | number)[] = () => [],
): void {
  const issues = rows.flatMap((row, index) => unstorableValueIssues(row, columns, pathOf(index)));
  if (issues.length > 0) throw validationError(issues, labels);
}
