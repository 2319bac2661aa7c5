/**
 * `node dist/bench/request-token.js`: what a signed request token costs per subgraph hop in the remote
 * topology (lib/principal.ts: sign at the sender, verify at the receiver), against two baselines
 * measured in the same run: Ed25519 over the same bytes with node:crypto alone (the floor of the
 * signature itself) and HMAC-SHA256 (the cost of the shared-secret scheme it replaced).
 */
import { createHmac, sign, verify } from 'node:crypto';
import { signRequestToken, verifyRequestToken, type Principal } from '../lib/principal';
import { generateServiceKeyPair, parseServicePrivateKey, parseServicePublicKey } from '../lib/service-keys';

const N = 3000;
const ROUNDS = 3;
const pair = generateServiceKeyPair();
const privateKey = parseServicePrivateKey(pair.privateKey);
const publicKey = parseServicePublicKey(pair.publicKey);
const body = JSON.stringify({ query: '{ upcomingPredictions(first: 20) { matchId confidence } }', variables: {} });
const principal: Principal = { kind: 'gateway' };

async function microseconds(work: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await work();
  return Number(process.hrtime.bigint() - start) / 1e3 / N;
}

async function main() {
  console.log(`Request token per hop (sign + verify), Node ${process.version}, mean of ${N} per round, µs`);
  const sample = Buffer.from(await signRequestToken({ issuer: 'gateway', audience: 'access', privateKey, body, principal }));
  for (let round = 1; round <= ROUNDS; round++) {
    const token = await microseconds(async () => {
      const t = await signRequestToken({ issuer: 'gateway', audience: 'access', privateKey, body, principal });
      await verifyRequestToken(t, { audience: 'access', publicKeyOf: () => publicKey, body });
    });
    const ed25519 = await microseconds(() => verify(null, sample, publicKey, sign(null, sample, privateKey)));
    const hmac = await microseconds(() => {
      const mac = createHmac('sha256', 'x'.repeat(64)).update(sample).digest();
      return createHmac('sha256', 'x'.repeat(64)).update(sample).digest().equals(mac);
    });
    console.log(`  round ${round}: token ${token.toFixed(0)}   Ed25519 alone ${ed25519.toFixed(0)}   HMAC-SHA256 ${hmac.toFixed(0)}`);
  }
}

void main();
