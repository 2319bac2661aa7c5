import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';

/** Shared by the application scenarios: reading mail the system sent, and writing applicants' mail. */

export const KEY_RE = /mpk_[0-9A-Za-z]{48}/g;

export interface ReadMail {
  to: string;
  subject: string;
  text: string;
  raw: string;
}

export async function readMail(raw: string | Buffer): Promise<ReadMail> {
  const mail = await PostalMime.parse(raw);
  return { to: (mail.to ?? []).map((a) => a.address).join(', '), subject: mail.subject ?? '', text: mail.text ?? '', raw: raw.toString() };
}

/** The file outbox (DATA_DIR/outbox): each message once, in the order written. */
export function outbox(dataDir: string) {
  const dir = join(dataDir, 'outbox');
  const seen = new Set<string>();
  return {
    dir,
    /** Messages written since the last call. */
    async fresh(): Promise<ReadMail[]> {
      if (!existsSync(dir)) return [];
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.eml') && !seen.has(f))
        .sort();
      files.forEach((f) => seen.add(f));
      return Promise.all(files.map((f) => readMail(readFileSync(join(dir, f)))));
    },
  };
}

/** A raw RFC 822 message as a mail client writes it (CRLF line ends). */
export function rfc822(opts: { from: string; subject: string; body: string; messageId?: string; replyTo?: string; headers?: Record<string, string> }): string {
  const headers: Record<string, string> = {
    From: opts.from,
    To: 'api-access@predictions.example',
    Subject: opts.subject,
    Date: new Date().toUTCString(),
    'Message-ID': opts.messageId ?? `<${Math.random().toString(36).slice(2)}@mail.example>`,
    'MIME-Version': '1.0',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Transfer-Encoding': '8bit',
    ...(opts.replyTo ? { 'Reply-To': opts.replyTo } : {}),
    ...opts.headers,
  };
  return `${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${opts.body.replace(/\r?\n/g, '\r\n')}`;
}
