import type { StoreDefinition } from '../../../../lib/database';
import { IdentityInit1733000000100 } from './migrations/1733000000100-IdentityInit';
import { IdentityKycLevel1733000000200 } from './migrations/1733000000200-IdentityKycLevel';
import { IdentityPhone1734100000100 } from './migrations/1734100000100-IdentityPhone';
import { IdentityOnboarding1795900000100 } from './migrations/1795900000100-IdentityOnboarding';
import { IdentityAttempts1795900000500 } from './migrations/1795900000500-IdentityAttempts';
import { IdentityPhoneVerification1796000000100 } from './migrations/1796000000100-IdentityPhoneVerification';
import { IdentitySupportStaff1796000000200 } from './migrations/1796000000200-IdentitySupportStaff';
import { IdentityAuditOutbox1797500000300 } from './migrations/1797500000300-IdentityAuditOutbox';
import { IdentityUniqueEmail1798000000100 } from './migrations/1798000000100-IdentityUniqueEmail';
import { IdentityOperatorChanges1799100000100 } from './migrations/1799100000100-IdentityOperatorChanges';

/** The finance node's users, admin sessions and sign-in throttling (schema `identity`), read and written with SQL (store/identity-store.ts). */
export const identityStore: StoreDefinition = {
  schema: 'identity',
  entities: [],
  migrations: [
    IdentityInit1733000000100,
    IdentityKycLevel1733000000200,
    IdentityPhone1734100000100,
    IdentityOnboarding1795900000100,
    IdentityAttempts1795900000500,
    IdentityPhoneVerification1796000000100,
    IdentitySupportStaff1796000000200,
    IdentityAuditOutbox1797500000300,
    IdentityUniqueEmail1798000000100,
    IdentityOperatorChanges1799100000100,
  ],
};
