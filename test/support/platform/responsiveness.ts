/**
 * "The rest of the process keeps answering while X runs": one measure for every test of that kind
 * (a hostile mail, a doubling-fragment document, a 30 MB feed file). The margin has to separate the
 * faults these tests guard against from the machine's own noise:
 * - the smallest fault: JSON.parse of the 30 MB feed file on the event loop alone takes 580–880 ms on
 *   this machine (the MIME bomb blocked 5.3 s per message; the fragment document did not finish);
 * - the noise: on a quiet machine the slowest probe stays within some 30 ms of the idle time, but under
 *   CI (two test workers and an image build on two cores) a probe of an idle loop took 121 ms more than
 *   the idle time, and the bound of 100 ms this replaces failed a correct build.
 */
export const RESPONSIVE_MARGIN_MS = 250;

/** One GET of `url` (a /healthz), in ms; anything but 200 fails the test. */
export async function probeMs(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

/** The slowest of `count` probes one after another, with nothing else running: the idle time on this machine now. */
export async function idleMs(url: string, count = 20): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < count; i++) slowest = Math.max(slowest, await probeMs(url));
  return slowest;
}

/** Probes `url` every 10 ms until `done` (and at least `minProbes` times): the slowest answer and how many. */
export async function probeUntil(url: string, done: () => boolean, minProbes = 1): Promise<{ slowest: number; probes: number }> {
  let slowest = 0;
  let probes = 0;
  while (!done() || probes < minProbes) {
    slowest = Math.max(slowest, await probeMs(url));
    probes += 1;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { slowest, probes };
}

/** Runs `work` while probing `url`; the probes and what `work` returned. */
export async function probeDuring<T>(url: string, work: () => Promise<T>, minProbes = 1): Promise<{ result: T; slowest: number; probes: number }> {
  let done = false;
  const running = work().finally(() => (done = true));
  const [health, result] = await Promise.all([probeUntil(url, () => done, minProbes), running]);
  return { result, ...health };
}

/** The probes during the work were answered, each within RESPONSIVE_MARGIN_MS of the idle time. */
export function expectResponsive(health: { slowest: number; probes: number }, idle: number): void {
  expect(health.probes).toBeGreaterThan(0);
  expect(health.slowest).toBeLessThan(idle + RESPONSIVE_MARGIN_MS);
}
