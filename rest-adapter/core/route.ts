import type { Request } from 'express';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler may answer besides plain JSON: the shapes the contracts need. */
export type Reply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'redirect'; location: string; status?: 301 | 302 | 303 | 307 }
  | { kind: 'file'; body: Buffer | string; contentType: string; filename: string }
  | { kind: 'html'; status?: number; html: string };

export interface RouteInput<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  params: P;
  query: Q;
  body: B;
  req: Request;
}

/** Names a credential as the OpenAPI document shows it; enforcement is the subgraphs' job. */
export type Security = 'none' | 'apiKey' | 'adminKey';

/**
 * One documented REST path: how the request becomes a persisted GraphQL operation and how its
 * result becomes the response. Thin on purpose: the rules live in the subgraphs' domain services.
 */
export interface Route {
  method: HttpMethod;
  /** Exact path; `:name` segments are path parameters. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  security: Security;
  /** Persisted document: operations/<operation>.graphql of the product. */
  operation: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * Body format: JSON (default), an HTML form (application/x-www-form-urlencoded), or raw text
   * such as an RFC 822 message (the body arrives as a string).
   */
  consumes?: 'json' | 'form' | 'text';
  variables?: (input: RouteInput<any, any, any>) => Record<string, unknown>;
  /** Turns the operation's data into the reply (default: the data as JSON). */
  respond?: (data: any, input: RouteInput<any, any, any>) => Reply;
  /**
   * Replies to a failed operation or invalid input in the route's own format (e.g. an HTML form
   * shown again with its messages). Default: the surface's JSON error body.
   */
  respondError?: (error: RouteError, input: RouteInput<any, any, any>) => Reply;
  response: { status?: number; description: string; schema?: z.ZodType; contentType?: string; headers?: Record<string, string> };
  /** Error statuses this route documents (the surface adds the common ones). */
  errors?: number[];
}

/** An error as a route sees it: HTTP status, the surface's code label, message and per-field messages. */
export interface RouteError {
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string[]>;
}
