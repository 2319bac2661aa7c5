import { readMail, type MailRead } from './application-mail';

/** The mail worker (piscina): one delivered message read off the event loop (mail-reader.ts). */
export default function read(raw: Uint8Array): Promise<MailRead> {
  return readMail(raw);
}
