import type { Request, RequestHandler, Response } from 'express';
import type { RequestCredentials } from '../../../gateway/context';
import type { CredentialKind } from '../../../lib/credentials';
import type { CoreErrorKind, MappedError } from '../errors';
import type { Reply, Route, RouteInput } from '../route';
import type { Surface, SurfaceOptions } from '../types';

/**
 * One request on its way through a route's stages (rest-adapter/core/stages/pipeline.ts): each stage
 * reads and fills the exchange, and either lets it go on or ends it with an outcome.
 */
export interface Exchange {
  req: Request;
  res: Response;
  route: Route<string>;
  app: SurfaceRuntime;
  input: RouteInput;
  /** The credential kinds the route accepts (the route's, else the surface's). */
  credentials: readonly CredentialKind[];
  /**
   * What is wrong with the request's input, answered only once the credential and the gate have had
   * their say: a caller who may not use the route learns nothing about what it takes, and a read-only
   * node answers every write with 403, whatever its body.
   */
  problem?: Problem;
}

/** An input problem: one of the core's error kinds, with per-field messages. */
export interface Problem {
  kind: CoreErrorKind;
  message: string;
  fields?: Record<string, string[]>;
}

/** What ends an exchange. */
export type Outcome =
  | { reply: Reply }
  /** A refused credential, a gate's refusal or a failed operation: in the route's own format when it has one. */
  | { error: MappedError }
  /** One of the core's own errors, always in the surface's error body. */
  | { core: Problem }
  /** Input problems, in the route's own format when it has one. */
  | { invalid: Problem }
  /** Already answered (503: the gateway or the database cannot be reached). */
  | { answered: true };

export type Stage = (x: Exchange) => Outcome | undefined | Promise<Outcome | undefined>;

/** What the stages share for every request of one surface app. */
export interface SurfaceRuntime {
  surface: Surface;
  options: SurfaceOptions;
  /** Body parsers by format (express's), run by the parse stage. */
  parsers: Record<'json' | 'form' | 'text', RequestHandler>;
  /** The route's persisted operation document, if it runs one. */
  document(route: Route<string>): string | undefined;
  /** The credentials the surface forwards to the gateway for a route (its kinds' headers and query parameters). */
  forward(route: Route<string>, req: Request): RequestCredentials;
}
