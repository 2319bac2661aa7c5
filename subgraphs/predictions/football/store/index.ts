import type { StoreDefinition } from '../../../../lib/database';
import { FootballInit1732200000100 } from './migrations/1732200000100-FootballInit';
import { FootballDataChanges1732500000100 } from './migrations/1732500000100-FootballDataChanges';
import { FootballDataChangesByRow1732600000100 } from './migrations/1732600000100-FootballDataChangesByRow';
import { FootballFeed1732700000100 } from './migrations/1732700000100-FootballFeed';

/** The football schema is read and written with SQL (bulk loads, keyset pages); no ORM entities. */
export const footballStore: StoreDefinition = {
  schema: 'football',
  entities: [],
  migrations: [FootballInit1732200000100, FootballDataChanges1732500000100, FootballDataChangesByRow1732600000100, FootballFeed1732700000100],
};
