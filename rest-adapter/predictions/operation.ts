import { operationRoute } from '../core/route';
import type { Operations } from './operations/types.generated';

/** A route of this surface that runs a persisted operation, its result and variables typed from the supergraph (core/route.ts). */
export const route = operationRoute<Operations>();

/** The generated result type of one of this product's persisted operations. */
export type ResultOf<N extends keyof Operations> = Operations[N]['result'];

/** The generated variables type of one of this product's persisted operations. */
export type VariablesOf<N extends keyof Operations> = Operations[N]['variables'];
