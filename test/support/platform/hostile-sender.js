'use strict';
/**
 * The sending side of the hostile-input sweep (test/support/platform/hostile.ts, sendAll), in a worker thread:
 * the services under test answer in the test file's own thread, and with the client's fetch on the
 * other core the sweep is not one thread doing both sides. Plain JavaScript: a worker thread loads it
 * outside jest's module system. Takes { cases, concurrency, timeoutMs, leak } and answers with the
 * outcomes, in the order the answers came.
 */
const { parentPort, workerData } = require('node:worker_threads');

/** undici's error for a request written to a connection the other side had closed (no answer began). */
function isStaleConnection(err) {
  const code = ((err && err.cause) || {}).code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** The error and its cause (undici's "fetch failed" says why only in its cause). */
function describeError(err) {
  const cause = err && err.cause;
  return cause ? `${err.message} (${cause.code ?? ''} ${cause.message ?? ''})` : String(err && err.message);
}

async function sendAll({ cases, concurrency, timeoutMs, leak }) {
  const LEAK = new RegExp(leak);
  const outcomes = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const started = Date.now();
      try {
        // a kept-alive connection the server closed (idle between two tests, or after a hostile request
        // with an unread body) can be handed to a request in the moment before the client sees it closed:
        // that request never reached the server, and is sent again (each stale connection fails only once)
        const send = async (attempt) => {
          try {
            return await fetch(c.url, { ...c.init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
          } catch (err) {
            if (attempt < 3 && isStaleConnection(err)) return send(attempt + 1);
            throw err;
          }
        };
        const res = await send(1);
        const text = await res.text();
        const ms = Date.now() - started;
        const failure = res.status >= 500 ? `status ${res.status}: ${text.slice(0, 300)}` : LEAK.test(text) ? `leak: ${text.slice(0, 300)}` : undefined;
        outcomes.push({ name: c.name, status: res.status, ms, failure });
      } catch (err) {
        outcomes.push({ name: c.name, ms: Date.now() - started, failure: `no answer: ${describeError(err)}` });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

sendAll(workerData).then(
  (outcomes) => parentPort.postMessage({ outcomes }),
  (err) => parentPort.postMessage({ error: describeError(err) }),
);
