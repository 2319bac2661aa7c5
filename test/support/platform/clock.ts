/**
 * The time the test apps run at unless a test gives its own clock: the day after the shipped data's
 * newest result (2025-12-30), so that its 2026 fixtures are still to be played. A test of the real
 * time passes `clock: () => new Date()` (a child app: MATCHDAY_TEST_NOW=real).
 */
export const DATA_WORLD_NOW = new Date('2025-12-31T00:00:00Z');
export const dataWorldClock = (): Date => DATA_WORLD_NOW;
