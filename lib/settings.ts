import { z } from 'zod';
import { keyProblem } from './service-keys';

/**
 * The builders of settings (Django settings style: what the environment spells, validated once at
 * start-up): the platform's schema (lib/config.ts) and each product's (subgraphs/<product>/settings.ts)
 * use the same ones, so a flag or a list reads alike whoever declares it.
 */

/** An Ed25519 key of lib/service-keys.ts (PEM or its base64 body). */
export const key = (kind: 'private' | 'public') =>
  z
    .string()
    .superRefine((value, ctx) => {
      const problem = keyProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional();
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
/** A string that must match `inner` when set; empty counts as unset (docker compose passes empty values). */
export const optionalString = (inner: z.ZodString) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(inner.optional())
    .optional();
/** A comma-separated list (Django settings style): trimmed, empty entries dropped. */
export const list = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
export const optionalText = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()));
/** Django-style booleans: true/false, 1/0, yes/no, on/off (any case). */
export const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return fallback;
      const v = s.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return fallback;
    });
export const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.string().url().optional())
  .optional();

/**
 * The public address a product builds its links from (mails, answers, invitations). In production none
 * is ever taken from a request's Host header or defaulted to localhost: a process that runs the product
 * refuses to start without it.
 */
export interface PublicUrlRule {
  /** The setting that holds it. */
  key: string;
  what: string;
  why: string;
  example: string;
}

/**
 * What a product reads from the environment: its schema (a zod object; its refinements are the
 * product's own cross-field checks) and the public URL that production requires of a process running it.
 */
export interface ProductSettings<S extends z.ZodObject = z.ZodObject> {
  schema: S;
  publicUrl?: PublicUrlRule;
}
