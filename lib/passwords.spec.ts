import fc from 'fast-check';
import { allowPasswordHashesAtOnce, hashPassword, passwordHashLoad, Slots, verifyPassword } from './passwords';

afterEach(() => allowPasswordHashesAtOnce(1));

it('hashes with one set of parameters: argon2id, 12 MiB, 3 passes, 1 lane', async () => {
  expect(await hashPassword('correct horse battery staple')).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
});

it('verifies: the right password holds; a wrong one, no stored hash or a malformed one does not', async () => {
  const stored = await hashPassword('correct horse battery staple');
  expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
  expect(await verifyPassword(stored, 'correct horse battery stapler')).toBe(false);
  expect(await verifyPassword(undefined, 'correct horse battery staple')).toBe(false);
  expect(await verifyPassword('', '')).toBe(false);
  expect(await verifyPassword('$argon2id$not-a-hash', 'x')).toBe(false);
  expect(await verifyPassword(stored, undefined)).toBe(false);
});

it("verifies a hash made with other parameters (@node-rs/argon2's default, 19 MiB and 2 passes, used before)", async () => {
  const earlier = '$argon2id$v=19$m=19456,t=2,p=1$d1AP4xiECVucvSdUxklj7Q$7EPSMaot0oC+1liQww9gGSi6kcECuE8+57DE6oVwoWY';
  expect(await verifyPassword(earlier, 'correct horse battery staple')).toBe(true);
  expect(await verifyPassword(earlier, 'correct horse battery stapl')).toBe(false);
});

it('runs at most PASSWORD_HASHES_AT_ONCE hashes at once, and every one finishes', async () => {
  for (const atOnce of [1, 2]) {
    allowPasswordHashesAtOnce(atOnce);
    const seen: number[] = [];
    const timer = setInterval(() => seen.push(passwordHashLoad().running), 1);
    const hashes = await Promise.all(Array.from({ length: 5 }, (_, i) => hashPassword(`password ${i}`)));
    clearInterval(timer);
    expect(new Set(hashes).size).toBe(5);
    expect(Math.max(...seen)).toBeLessThanOrEqual(atOnce);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  }
});

it('refuses a bound that is not a positive integer', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => allowPasswordHashesAtOnce(bad)).toThrow(RangeError);
});

it('Slots: never more than its size at once, first come first served, each work once, through resizes and failures', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.record({ ms: fc.integer({ min: 0, max: 3 }), fails: fc.boolean(), resizeTo: fc.option(fc.integer({ min: 1, max: 4 })) }), {
        minLength: 1,
        maxLength: 20,
      }),
      async (size, works) => {
        const slots = new Slots(size);
        let running = 0;
        let bound = size;
        let maxOver = 0;
        const started: number[] = [];
        const results = await Promise.allSettled(
          works.map((w, i) =>
            slots.run(async () => {
              started.push(i);
              running++;
              maxOver = Math.max(maxOver, running - bound);
              if (w.resizeTo !== null) {
                // a smaller bound lets running work finish; only new starts wait for it
                bound = Math.max(w.resizeTo, 1);
                slots.resize(bound);
              }
              await new Promise((r) => setTimeout(r, w.ms));
              running--;
              if (w.fails) throw new Error(`work ${i}`);
              return i;
            }),
          ),
        );
        expect(started).toEqual(works.map((_, i) => i));
        results.forEach((r, i) => expect(r.status === 'fulfilled' ? r.value : (r.reason as Error).message).toEqual(works[i].fails ? `work ${i}` : i));
        expect(slots.load).toEqual({ running: 0, waiting: 0 });
        if (works.every((w) => w.resizeTo === null)) expect(maxOver).toBe(0);
      },
    ),
    { numRuns: 60 },
  );
});
