import { requestAsDomain } from '../../kernel/ledger-client';
import type { SupergraphClient } from '../../../../lib/supergraph-client';

export interface Recipient {
  id: string;
  username: string;
  /** Passed identity verification (KYC basic or above). */
  verified: boolean;
}

const RECIPIENT = `query PaymentsRecipient($reference: String!) { nodeRecipient(reference: $reference) { id username verified } }`;

/** A transfer's recipient by user name, e-mail or phone; null when no active user has it. */
export type FindRecipient = (reference: string) => Promise<Recipient | null>;

/** Identity resolves recipients for the payments module only (RECIPIENT_READERS), through the supergraph. */
export const recipientsThrough =
  (supergraph: SupergraphClient): FindRecipient =>
  async (reference) =>
    (await requestAsDomain<{ nodeRecipient: Recipient | null }>(supergraph, RECIPIENT, { reference })).nodeRecipient;
