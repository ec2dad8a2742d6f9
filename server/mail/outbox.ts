/**
 * Reads the file outbox ($DATA_DIR/mail/*.eml) for the development mail page (not in production).
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  date: string;
  links: string[];
}

function header(raw: string, name: string): string {
  const match = raw.match(new RegExp(`^${name}: (.*)$`, 'mi'));
  return match?.[1]?.trim() ?? '';
}

/** Newest first. Quoted-printable soft line breaks are undone so links are whole. */
export async function readOutbox(outboxDir: string): Promise<OutboxMessage[]> {
  let files: string[] = [];
  try {
    files = (await fs.readdir(outboxDir)).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  files.sort().reverse();
  return Promise.all(
    files.map(async (file) => {
      const raw = await fs.readFile(path.join(outboxDir, file), 'utf8');
      const body = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const links = [...new Set(body.match(/https?:\/\/[^\s"<>]+/g) ?? [])];
      return {
        file,
        to: header(raw, 'To'),
        subject: header(raw, 'Subject'),
        date: header(raw, 'Date'),
        links,
      };
    }),
  );
}
