/**
 * The payments subgraph's published words: the domain and the REST surface's schemas and
 * documentation share them (the REST layer reaches no domain/ module).
 */

/** The conversion fee, in basis points of the source amount (rounded up to the minor unit), to the FX revenue account. */
export const FX_FEE_BPS = 50n;
/** How long a quote holds its rate. */
export const FX_QUOTE_TTL_SECONDS = 60;

/** The longest note a transfer carries (characters). */
export const NOTE_MAX_LENGTH = 140;
