import { NotifiedMemo } from './notified-memo';

/** A computation whose calls are counted and whose answers the test releases one by one. */
function counted() {
  let calls = 0;
  const waiting: ((v: number) => void)[] = [];
  const compute = () => {
    calls++;
    return new Promise<number>((resolve) => waiting.push(resolve));
  };
  return {
    compute,
    calls: () => calls,
    release: (v: number) => waiting.shift()!(v),
  };
}

let now = 1_000;
const clock = () => now;
beforeEach(() => {
  now = 1_000;
});

it('computes once while the announcements arrive, and again after each one', async () => {
  let n = 0;
  const memo = new NotifiedMemo(() => Promise.resolve(++n), { now: clock });
  memo.listening(true);
  expect(await memo.get()).toBe(1);
  expect(await memo.get()).toBe(1);
  memo.invalidate();
  expect(await memo.get()).toBe(2);
  expect(await memo.get()).toBe(2);
});

it('keeps nothing while the announcements do not arrive (before the first LISTEN, after a lost connection)', async () => {
  let n = 0;
  const memo = new NotifiedMemo(() => Promise.resolve(++n), { now: clock });
  expect(await memo.get()).toBe(1);
  expect(await memo.get()).toBe(2);
  memo.listening(true);
  expect(await memo.get()).toBe(3);
  expect(await memo.get()).toBe(3);
  memo.listening(false);
  expect(await memo.get()).toBe(4);
  expect(await memo.get()).toBe(5);
});

it('readers during a computation share it; a computation that overlapped an announcement is not kept', async () => {
  const c = counted();
  const memo = new NotifiedMemo(c.compute, { now: clock });
  memo.listening(true);
  const [a, b] = [memo.get(), memo.get()];
  expect(c.calls()).toBe(1);
  memo.invalidate(); // the tables changed while it ran
  c.release(1);
  expect(await a).toBe(1);
  expect(await b).toBe(1);
  const next = memo.get();
  expect(c.calls()).toBe(2);
  c.release(2);
  expect(await next).toBe(2);
  expect(await memo.get()).toBe(2);
  expect(c.calls()).toBe(2);
});

it('a value that goes out of date by time alone (validUntil) is computed again then; a clock set back does not see it', async () => {
  let n = 0;
  const memo = new NotifiedMemo(() => Promise.resolve(++n), { now: clock, validUntil: () => 2_000 });
  memo.listening(true);
  expect(await memo.get()).toBe(1);
  now = 1_999;
  expect(await memo.get()).toBe(1);
  now = 2_000;
  expect(await memo.get()).toBe(2);
  now = 500;
  expect(await memo.get()).toBe(3);
});

it('the backstop age bounds a value whose announcement was missed', async () => {
  let n = 0;
  const memo = new NotifiedMemo(() => Promise.resolve(++n), { now: clock, maxAgeMs: 100 });
  memo.listening(true);
  expect(await memo.get()).toBe(1);
  now += 99;
  expect(await memo.get()).toBe(1);
  now += 1;
  expect(await memo.get()).toBe(2);
});

it('a failed computation is not kept: the next reader tries again', async () => {
  let fail = true;
  const memo = new NotifiedMemo(() => (fail ? Promise.reject(new Error('down')) : Promise.resolve(7)), { now: clock });
  memo.listening(true);
  await expect(memo.get()).rejects.toThrow('down');
  fail = false;
  expect(await memo.get()).toBe(7);
});
