import fc from 'fast-check';
import { GroupCommit } from './group-commit';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GroupCommit', () => {
  it('sends a call alone at once, and the calls that arrive meanwhile together in the next statement, in order', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const commit = new GroupCommit<string, number, number>(async (_key, items) => {
      writes.push(items);
      if (writes.length === 1) await first;
      return items.map((i) => i * 10);
    });
    const a = commit.submit('k', 'k', 1);
    expect(writes).toEqual([[1]]);
    const rest = [2, 3, 4].map((i) => commit.submit('k', 'k', i));
    release();
    expect(await Promise.all([a, ...rest])).toEqual([10, 20, 30, 40]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('fails only the batch whose statement failed, and a wrong count of results', async () => {
    let fail: 'throw' | 'short' | undefined = 'throw';
    const commit = new GroupCommit<string, number, number>(async (_key, items) => {
      await tick(1);
      const mode = fail;
      fail = fail === 'throw' ? 'short' : undefined;
      if (mode === 'throw') throw new Error('statement failed');
      return mode === 'short' ? items.slice(1) : items;
    });
    const first = commit.submit('k', 'k', 1);
    const second = [commit.submit('k', 'k', 2), commit.submit('k', 'k', 3)];
    await expect(first).rejects.toThrow('statement failed');
    await expect(Promise.all(second)).rejects.toThrow('answered 1 results for 2 calls');
    // the key's batch ended with the failures: a later call starts afresh
    expect(await commit.submit('k', 'k', 4)).toBe(4);
  });

  it('refuses a batch size below one', () => {
    expect(() => new GroupCommit(async () => [], 0)).toThrow(RangeError);
  });

  it('whatever the arrivals: each call gets its own result, once, at most `max` per statement, one statement per key at a time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), at: fc.integer({ min: 0, max: 4 }) }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 }),
        async (max, calls, delays) => {
          const running = new Map<string, number>();
          const written: number[] = [];
          let statements = 0;
          const commit = new GroupCommit<string, number, string>(async (key, items) => {
            running.set(key, (running.get(key) ?? 0) + 1);
            expect(running.get(key)).toBe(1);
            expect(items.length).toBeLessThanOrEqual(max);
            await tick(delays[statements++ % delays.length]);
            running.set(key, running.get(key)! - 1);
            written.push(...items);
            return items.map((i) => `${key}:${i}`);
          }, max);
          const results = await Promise.all(
            calls.map(async ({ key, at }, i) => {
              await tick(at);
              return commit.submit(key, key, i);
            }),
          );
          expect(results).toEqual(calls.map(({ key }, i) => `${key}:${i}`));
          expect([...written].sort((x, y) => x - y)).toEqual(calls.map((_, i) => i));
        },
      ),
      { numRuns: 60 },
    );
  });
});
