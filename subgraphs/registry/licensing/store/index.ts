import type { StoreDefinition } from '../../../../lib/database';
import { OrganisationRow, PlanRow, ProductRow, WorkspaceUserRow } from './entities';
import { LicensingInit1732400000000 } from './migrations/1732400000000-LicensingInit';
import { Workspace1764000000000 } from './migrations/1764000000000-Workspace';
import { MachineFingerprint1765000000000 } from './migrations/1765000000000-MachineFingerprint';
import { MobileSigning1766000000000 } from './migrations/1766000000000-MobileSigning';
import { FrontendImages1766100000000 } from './migrations/1766100000000-FrontendImages';
import { ReleaseChanges1766200000000 } from './migrations/1766200000000-ReleaseChanges';
import { MeterBatches1766300000000 } from './migrations/1766300000000-MeterBatches';

export const licensingStore: StoreDefinition = {
  schema: 'licensing',
  entities: [OrganisationRow, WorkspaceUserRow, ProductRow, PlanRow],
  migrations: [
    LicensingInit1732400000000,
    Workspace1764000000000,
    MachineFingerprint1765000000000,
    MobileSigning1766000000000,
    FrontendImages1766100000000,
    ReleaseChanges1766200000000,
    MeterBatches1766300000000,
  ],
};
