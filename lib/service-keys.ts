import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * Ed25519 key pairs, one per service of the remote topology (docker compose): the gateway signs the
 * principals it forwards to each subgraph with its own private key, and each subgraph signs its own
 * service principal for the gateway with its own. A subgraph holds only its own private key and the
 * gateway's public key, so a compromised subgraph can sign for nobody but itself.
 *
 * In the environment a key is one line: the base64 of its DER (PKCS#8 private, SPKI public); PEM is
 * accepted too. `npm run --silent service-keys > .env` writes a fresh set for docker compose.
 */

/** The name the gateway signs as, and the audience of what subgraphs send it. */
export const GATEWAY_SERVICE = 'gateway';

function readKey(text: string, kind: 'private' | 'public'): KeyObject {
  const value = text.trim().replace(/\\n/g, '\n');
  const key = value.startsWith('-----BEGIN')
    ? kind === 'private'
      ? createPrivateKey(value)
      : createPublicKey(value)
    : kind === 'private'
      ? createPrivateKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'pkcs8' })
      : createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return key;
}

/** An Ed25519 private key from its environment line; throws a readable error otherwise. */
export const parseServicePrivateKey = (text: string): KeyObject => readKey(text, 'private');
/** An Ed25519 public key from its environment line; throws a readable error otherwise. */
export const parseServicePublicKey = (text: string): KeyObject => readKey(text, 'public');

/** Whether a setting holds a readable key of that kind (for the configuration check). */
export function keyProblem(text: string, kind: 'private' | 'public'): string | undefined {
  try {
    readKey(text, kind);
    return undefined;
  } catch (err) {
    return `is not an Ed25519 ${kind} key (base64 of the ${kind === 'private' ? 'PKCS#8' : 'SPKI'} DER, or PEM): ${(err as Error).message}`;
  }
}

export interface ServiceKeyPair {
  privateKey: string;
  publicKey: string;
}

/** A new key pair, each key as one environment line. */
export function generateServiceKeyPair(): ServiceKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

/** The environment variable of a service's key in docker compose's .env: `GATEWAY_PRIVATE_KEY`, `ACCESS_PUBLIC_KEY`, … */
export const keyVariable = (service: string, kind: 'private' | 'public') => `${service.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${kind.toUpperCase()}_KEY`;

/** A fresh key pair for the gateway and each named subgraph, as `.env` lines for docker compose. */
export function serviceKeyEnv(subgraphs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const service of [GATEWAY_SERVICE, ...subgraphs]) {
    const pair = generateServiceKeyPair();
    env[keyVariable(service, 'private')] = pair.privateKey;
    env[keyVariable(service, 'public')] = pair.publicKey;
  }
  return env;
}
