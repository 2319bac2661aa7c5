import fc from 'fast-check';
import { ResponseCache, stableJson } from './response-cache';

const listening = (opts: Partial<ConstructorParameters<typeof ResponseCache>[0]> = {}) => {
  const cache = new ResponseCache({ maxBytes: 100_000, ttlMs: 60_000, ...opts });
  cache.setListening(true);
  return cache;
};

it('serves and stores nothing until the change notifications arrive, and nothing while they may be missed', () => {
  const cache = new ResponseCache({ maxBytes: 100_000, ttlMs: 60_000 });
  cache.set('k', ['predictions'], cache.begin(['predictions']), 'v');
  expect(cache.get('k')).toBeUndefined();
  cache.setListening(true);
  cache.set('k', ['predictions'], cache.begin(['predictions']), 'v');
  expect(cache.get('k')).toBe('v');
  // the LISTEN connection is lost: what is held may go stale, and is dropped
  cache.setListening(false);
  expect(cache.get('k')).toBeUndefined();
  cache.setListening(true);
  expect(cache.get('k')).toBeUndefined();
});

it('evicts the answers of a tag that changed, and only those', () => {
  const cache = listening();
  cache.set('latest', ['predictions'], cache.begin(['predictions']), 1);
  cache.set('versions', ['predictions', 'football'], cache.begin(['predictions', 'football']), 2);
  cache.set('teams', ['football'], cache.begin(['football']), 3);
  cache.invalidate('predictions');
  expect([cache.get('latest'), cache.get('versions'), cache.get('teams')]).toEqual([undefined, undefined, 3]);
});

it('never stores an answer whose execution overlapped a change of its data, or a clear', () => {
  const cache = listening();
  const before = cache.begin(['predictions', 'football']);
  cache.invalidate('football');
  cache.set('k', ['predictions', 'football'], before, 'stale');
  expect(cache.get('k')).toBeUndefined();
  const again = cache.begin(['predictions']);
  cache.clear();
  cache.set('k', ['predictions'], again, 'stale');
  expect(cache.get('k')).toBeUndefined();
  // a change of another tag does not matter
  const fresh = cache.begin(['predictions']);
  cache.invalidate('football');
  cache.set('k', ['predictions'], fresh, 'fresh');
  expect(cache.get('k')).toBe('fresh');
});

it('keeps an answer for the TTL at most, and the most recently used answers within the size', () => {
  let now = 0;
  // each entry weighs 33 (a key of 1 character, a value of 32 as JSON): 12 fit in 400
  const cache = listening({ maxBytes: 400, ttlMs: 1000, now: () => now });
  const value = (c: string) => c.repeat(30);
  const keys = 'abcdefghijkl'.split('');
  for (const k of keys) cache.set(k, ['t'], cache.begin(['t']), value(k));
  expect(cache.get('a')).toBe(value('a'));
  cache.set('m', ['t'], cache.begin(['t']), value('m'));
  // b was the least recently used
  expect([cache.get('a'), cache.get('b'), cache.get('m')]).toEqual([value('a'), undefined, value('m')]);
  expect(cache.weight).toBe(12 * 33);
  now = 1000;
  expect(cache.get('a')).toBeUndefined();
  expect(cache.weight).toBe(11 * 33);
});

it('does not keep an answer over a tenth of the size', () => {
  const cache = listening({ maxBytes: 1000 });
  cache.set('big', ['a'], cache.begin(['a']), 'x'.repeat(100));
  expect(cache.get('big')).toBeUndefined();
  cache.set('small', ['a'], cache.begin(['a']), 'x'.repeat(90));
  expect(cache.get('small')).toBe('x'.repeat(90));
});

it('property: after any sequence of changes, an answer is served only if no change of its tags came after the execution began', () => {
  const tags = ['a', 'b', 'c'];
  const step = fc.oneof(
    fc.record({ kind: fc.constant('run' as const), key: fc.integer({ min: 0, max: 3 }), tags: fc.subarray(tags, { minLength: 1 }) }),
    fc.record({ kind: fc.constant('finish' as const), run: fc.nat() }),
    fc.record({ kind: fc.constant('change' as const), tag: fc.constantFrom(...tags) }),
    fc.record({ kind: fc.constant('read' as const), key: fc.integer({ min: 0, max: 3 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const cache = listening();
      let version = 0;
      /** When each tag's data last changed. */
      const changedAt = new Map<string, number>();
      const running: { key: string; tags: string[]; ticket: ReturnType<ResponseCache['begin']>; startedAt: number }[] = [];
      for (const s of steps) {
        if (s.kind === 'run') running.push({ key: `k${s.key}`, tags: s.tags, ticket: cache.begin(s.tags), startedAt: version });
        else if (s.kind === 'finish' && running.length) {
          const [r] = running.splice(s.run % running.length, 1);
          cache.set(r.key, r.tags, r.ticket, r);
        } else if (s.kind === 'change') {
          changedAt.set(s.tag, ++version);
          cache.invalidate(s.tag);
        }
        if (s.kind === 'read') {
          const hit = cache.get(`k${s.key}`) as { tags: string[]; startedAt: number } | undefined;
          if (hit) for (const tag of hit.tags) expect(changedAt.get(tag) ?? 0).toBeLessThanOrEqual(hit.startedAt);
        }
      }
    }),
  );
});

it('keys variables by value, whatever the order of their fields', () => {
  expect(stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(stableJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
  expect(stableJson({ a: 1 })).not.toBe(stableJson({ a: '1' }));
  expect(stableJson({ a: undefined, b: 2 })).toBe(stableJson({ b: 2 }));
});
