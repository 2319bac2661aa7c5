import { z } from 'zod';

/** Response bodies of the prediction surface: documented in OpenAPI and checked by the contract tests. */

export const errorBody = z.object({
  detail: z.string().describe('What went wrong, for people.'),
  code: z.string().describe('Stable label: invalid, parse_error, not_authenticated, authentication_failed, permission_denied, not_found, method_not_allowed, conflict, request_too_large, throttled, error.'),
  errors: z.record(z.string(), z.array(z.string())).optional().describe('Per-field messages (invalid only).'),
});

export const serviceInfo = z.object({
  service: z.string(),
  version: z.string(),
  description: z.string(),
  documentation: z.string().describe('API reference (HTML).'),
  openapi: z.string().describe('OpenAPI 3.1 document.'),
  key: z.object({
    prefix: z.string(),
    name: z.string(),
    plan: z.enum(['free', 'pro', 'enterprise']),
    role: z.enum(['client', 'admin']),
  }),
  plans: z.array(z.object({ code: z.string(), name: z.string(), daily_limit: z.number().int().nullable() })),
  data: z.object({
    competitions: z.number().int(),
    teams: z.number().int(),
    matches: z.number().int(),
    finished_matches: z.number().int(),
    scheduled_matches: z.number().int(),
    latest_result_date: z.string().nullable(),
  }),
  endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string(), auth: z.enum(['api_key', 'admin_key', 'none']) })),
});
