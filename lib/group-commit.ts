/**
 * Group commit for statements that count requests (quotas, rate windows): the calls for one key that
 * arrive while that key's statement runs wait, then go together in the next statement, at most `max` of
 * them (1: a statement per call). Under load a key costs one round trip per batch, not per call; alone,
 * a call goes at once. `write` gets the calls' items in arrival order and answers one result per item,
 * in the same order; when it fails, that batch's calls fail and the next batch still runs.
 */
export class GroupCommit<Key, Item, Result> {
  private readonly batches = new Map<string, { waiting: { item: Item; resolve(r: Result): void; reject(err: unknown): void }[] }>();

  constructor(
    private readonly write: (key: Key, items: Item[]) => Promise<Result[]>,
    private readonly max = 500,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a group commit takes at least one call per statement (max ${max})`);
  }

  /** Queues `item` for `key` (`id` names the key: calls with the same id are grouped) and answers its result. */
  submit(id: string, key: Key, item: Item): Promise<Result> {
    const running = this.batches.get(id);
    const batch = running ?? { waiting: [] };
    const result = new Promise<Result>((resolve, reject) => batch.waiting.push({ item, resolve, reject }));
    if (!running) {
      this.batches.set(id, batch);
      void this.drain(id, key, batch);
    }
    return result;
  }

  private async drain(id: string, key: Key, batch: { waiting: { item: Item; resolve(r: Result): void; reject(err: unknown): void }[] }) {
    while (batch.waiting.length) {
      const group = batch.waiting.splice(0, this.max);
      try {
        const results = await this.write(
          key,
          group.map((call) => call.item),
        );
        if (results.length !== group.length) throw new Error(`a group commit's statement answered ${results.length} results for ${group.length} calls`);
        group.forEach((call, i) => call.resolve(results[i]));
      } catch (err) {
        for (const call of group) call.reject(err);
      }
    }
    this.batches.delete(id);
  }
}
