import { DomainError } from '../../../../lib/errors';
import { requestAsDomain } from '../../kernel/ledger-client';
import type { SupergraphClient } from '../../../../lib/supergraph-client';

/** What the holder gives again before a card's full number shows: the password, and the one-time code when 2FA is on. */
export interface Reauthentication {
  password: string;
  otp?: string | null;
  clientAddress?: string;
}

/**
 * Checks the holder's password (and code) again; resolves, or throws the refusal as a DomainError
 * (403 REAUTHENTICATION_FAILED / OTP_REQUIRED, 429 RATE_LIMITED with Retry-After).
 */
export type Reauthenticate = (userId: string, input: Reauthentication) => Promise<void>;

const REFUSALS = new Set(['REAUTHENTICATION_FAILED', 'OTP_REQUIRED']);

const REAUTHENTICATE = `mutation CardsReauthenticate($userId: ID!, $password: String!, $otp: String, $clientAddress: String) {
  reauthenticateNodeUser(userId: $userId, password: $password, otp: $otp, clientAddress: $clientAddress)
}`;

/** Identity re-checks the password for the cards module only (REAUTHENTICATORS), through the supergraph, with the sign-in throttle. */
export const reauthenticationThrough =
  (supergraph: SupergraphClient): Reauthenticate =>
  async (userId, input) => {
    try {
      await requestAsDomain(supergraph, REAUTHENTICATE, {
        userId,
        password: input.password,
        otp: input.otp ?? null,
        clientAddress: input.clientAddress ?? null,
      });
    } catch (err) {
      // a refusal reaches the caller as what it is here: the holder's token is fine, the re-authentication is not (403)
      if (err instanceof DomainError && REFUSALS.has(err.code)) throw new DomainError(err.code, 403, err.message);
      throw err;
    }
  };
