/**
 * A person's name is one line of text (issue 49 item 4): a first, middle or last name with a line
 * break, a tab, NUL or any other control character would print as extra lines in a PDF (a File
 * Summary's 'Provider' block), break a roster row or hide text in a directory. Shared by the account
 * schemas (zod/mini) and the sections' name fields (zod), so the client and the server refuse the same
 * names with the same message. Pure: no zod, no Node.
 */

/** C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F), line and paragraph separators. */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

/** Whether `text` holds a control character a name may not hold. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** The message for a name with a control character: 'First name must be on one line, without tabs or control characters'. */
export function controlCharacterMessage(label: string): string {
  return `${label} must be on one line, without tabs or control characters`;
}
