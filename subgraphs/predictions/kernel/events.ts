/**
 * Cross-domain events carried by PostgreSQL NOTIFY. Only channel names and payload shapes are
 * shared: no domain reads another's tables.
 */
export const MATCHES_CHANGED = 'football_matches_changed';
export interface MatchesChangedEvent {
  source: string;
  changed: number;
}
