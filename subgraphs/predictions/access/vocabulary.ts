/**
 * The access subgraph's published words: the domain and the REST surface's documentation share them
 * (the REST layer reaches no domain/ module).
 */

/** How long a confirmation link of an access application works. */
export const CONFIRMATION_LINK_DAYS = 3;
