/**
 * Waiting for something a test cannot be told about (a background pass, a container, a listener):
 * one way for every test, so the wait's name, its bound and what it returns read the same everywhere.
 */

/**
 * Polls until `check` answers something other than undefined and returns it, or fails after `timeoutMs`
 * naming `what` (and the last error `check` threw, which is retried). It asks at once, then after 100 ms,
 * doubling to once a second: a quick change is seen quickly, a slow one (a container) is not hammered.
 */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (last: ${(last as Error).message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
