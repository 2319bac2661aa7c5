import { toMoney } from '../../kernel/currencies';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import type { Operator } from './adjustments';
import type { Ledger, TransferOutcome } from './ledger';

/**
 * An administrator voids a pending transfer stuck waiting for its provider (admin console): once (a
 * second void answers `exists`, not audited again), audited in the void's own transaction.
 */
export class PendingVoids {
  constructor(
    private readonly ledger: Ledger,
    private readonly audit: AuditOutbox,
  ) {}

  void(pendingId: string, reason: string, by: Operator): Promise<TransferOutcome> {
    return this.ledger.voidPending(pendingId, reason, (c, o) =>
      this.audit.record(c, adminActor(by.name), 'transfer.voided', {
        transfer: pendingId,
        void: o.id,
        amount: toMoney(o.transfer.amount, o.transfer.currency).amount,
        currency: o.transfer.currency,
        debitAccount: o.transfer.debitAccountId,
        creditAccount: o.transfer.creditAccountId,
        reason,
      }),
    );
  }
}
