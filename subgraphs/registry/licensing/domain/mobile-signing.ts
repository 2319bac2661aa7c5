import type { SecretBox } from '../../../../lib/secret-box';
import type { WorkspaceStore } from '../store/workspace-store';

/** A signing key made by the client builders (keytool): the PKCS#12 bytes, their password and the key's alias. */
export interface MadeSigningKey {
  keystore: Buffer;
  password: string;
  alias: string;
}

/**
 * Each organisation's one Android signing key: made (PKCS#12) by its first mobile build, sealed at rest
 * with the registry's secret box (bound to the organisation: a sealed key copied onto another
 * organisation's row does not open), reused by every later build; and its versionCode, one larger for
 * every build. Same key and a larger versionCode: Android installs the update over the last one.
 */
export class MobileSigningKeys {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly box: SecretBox,
  ) {}

  /** The organisation's key (made now with `make` if it has none) and the versionCode of this build. */
  async forBuild(organisationId: string, make: () => Promise<MadeSigningKey>): Promise<MadeSigningKey & { versionCode: number }> {
    const sealed = await this.store.signingKey(organisationId, async () => {
      const made = await make();
      return {
        keystoreSealed: this.box.seal(made.keystore, context(organisationId, 'keystore')),
        passwordSealed: this.box.seal(made.password, context(organisationId, 'password')),
        alias: made.alias,
      };
    });
    const versionCode = await this.store.nextVersionCode(organisationId);
    return {
      keystore: this.box.openBuffer(sealed.keystoreSealed, context(organisationId, 'keystore')),
      password: this.box.open(sealed.passwordSealed, context(organisationId, 'password')),
      alias: sealed.alias,
      versionCode,
    };
  }
}

const context = (organisationId: string, part: string) => `licensing.mobile_signing_key:${organisationId}:${part}`;
