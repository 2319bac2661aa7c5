import { stopStartingApps } from './app';

// after every test file: an app whose start outlived its beforeAll (a hook timeout) is stopped, not orphaned
afterAll(() => stopStartingApps(), 180_000);
