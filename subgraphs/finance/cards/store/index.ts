import type { StoreDefinition } from '../../../../lib/database';
import { CardsInit1734100000000 } from './migrations/1734100000000-CardsInit';

/** Virtual cards and their authorisations (schema `cards`), written only through store/card-store.ts. */
export const cardsStore: StoreDefinition = {
  schema: 'cards',
  entities: [],
  migrations: [CardsInit1734100000000],
};
