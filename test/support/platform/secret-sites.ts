import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../../lib/paths';

/**
 * Where secrets are checked, found in the code (not listed by hand): every call of a function that
 * verifies a secret — a password hash, a one-time code, a recovery code, a mailed token, a phone
 * code, a licence key, a webhook secret — must run inside the callback of an attempt throttle's
 * `guard` (lib/attempts.ts: reserve, check, give back), directly or through helpers that only such
 * callbacks call. The guard calls found are the "secret sites"; test/finance/contract/secret-throttle.test.ts
 * and test/registry/contract/secret-throttle.test.ts fire 40 concurrent wrong guesses at each.
 */

export const ROOT = projectRoot();
const SCANNED = ['lib', 'subgraphs', 'rest-adapter', 'gateway', 'bin'];

/**
 * The functions that verify a secret, by the name they are called with. An import of argon2's or
 * otplib's `verify` under any other name fails the scan (`verifierImports`).
 */
export const VERIFIERS = new Set([
  'argon2Verify', // @node-rs/argon2 verify: passwords (lib/passwords.ts only)
  'verifyPassword', // lib/passwords.ts: passwords, everywhere else
  'totpVerify', // otplib verify: one-time codes
  'timingSafeEqual', // node:crypto: codes and secrets compared in constant time
  'useToken', // identity: e-mail verification and password reset tokens
  'useRecoveryCode', // identity: 2FA recovery codes
  'completeSignupRequest', // identity: the link of a sign-up for a claimed address
  'consumePasswordToken', // registry workspace: invitation and reset links
  'authRow', // registry: licence keys (looked up by their hash)
  'secretMatches', // predictions access: the inbound-mail webhook secret
]);

/**
 * Constant-time comparisons that check no guessable secret: the value compared is an HMAC under a
 * key the server holds (a guess needs the key, not luck), or the client's own cookie.
 */
export const NOT_GUESSABLE: Record<string, string> = {
  'subgraphs/finance/kernel/provider-http.ts': 'provider webhook signature: HMAC-SHA256 under the provider secret',
  'lib/object-store.ts': 'signed object-store link: HMAC under the node secret',
  'rest-adapter/core/csrf.ts': 'CSRF double submit: the cookie the client itself holds',
  'subgraphs/finance/banking/domain/webhooks.ts': 'banking provider webhook signature: HMAC under the provider secret',
  'subgraphs/finance/compliance/domain/sumsub.ts': 'KYC provider webhook signature: HMAC under the provider secret',
  'subgraphs/predictions/access/domain/key-format.ts':
    'API key hash, found by its random 32-byte key id first (the gateway verifies it); not a guess at one account',
};

export interface Finding {
  file: string;
  line: number;
  text: string;
}

export interface Scan {
  /** Verifier calls not inside a guard callback (nor a helper only guard callbacks call). */
  unguarded: Finding[];
  /** `file#function` of every function that calls `guard(` — the secret sites. */
  sites: string[];
  /** Imports of argon2's or otplib's `verify`, or of lib/passwords' `verifyPassword`, under another name. */
  verifierImports: Finding[];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : files(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const calleeName = (call: ts.CallExpression): string | undefined => {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
};

/** The name of the function or method a node is declared in (the nearest named one). */
function enclosingName(node: ts.Node): string | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isMethodDeclaration(n) || ts.isFunctionDeclaration(n) || ts.isGetAccessor(n)) && n.name && ts.isIdentifier(n.name)) return n.name.text;
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent) && ts.isIdentifier(n.parent.name))
      return n.parent.name.text;
  }
  return undefined;
}

/** Whether a node lies inside the callback (last argument) of a `.guard(…)` call. */
function inGuardCallback(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n?.parent; n = n.parent) {
    const p: ts.Node = n.parent;
    if (ts.isCallExpression(p) && calleeName(p) === 'guard' && p.arguments.length > 0 && p.arguments[p.arguments.length - 1] === n) return true;
  }
  return false;
}

/** `extra`: more sources by name (the scan's own test plants a violation in one). */
export function scanSecretSites(opts: { extra?: Record<string, string> } = {}): Scan {
  const sources = [
    ...SCANNED.flatMap((d) => files(join(ROOT, d))).map((path) => ({ rel: relative(ROOT, path), text: readFileSync(path, 'utf8') })),
    ...Object.entries(opts.extra ?? {}).map(([rel, text]) => ({ rel, text })),
  ].map(({ rel, text }) => ({ rel, sf: ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true) }));
  const callsByName = new Map<string, ts.CallExpression[]>();
  const verifierCalls: { rel: string; call: ts.CallExpression }[] = [];
  const sites = new Set<string>();
  const verifierImports: Finding[] = [];
  const where = (rel: string, sf: ts.SourceFile, node: ts.Node): Finding => ({
    file: rel,
    line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    text: node.getText().slice(0, 120),
  });
  for (const { rel, sf } of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node);
        if (name) callsByName.set(name, [...(callsByName.get(name) ?? []), node]);
        if (name && VERIFIERS.has(name) && !(name === 'timingSafeEqual' && NOT_GUESSABLE[rel])) verifierCalls.push({ rel, call: node });
        if (name === 'guard' && ts.isPropertyAccessExpression(node.expression)) sites.add(`${rel}#${enclosingName(node) ?? '?'}`);
      }
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && ['@node-rs/argon2', 'otplib'].includes(node.moduleSpecifier.text)) {
        const named = node.importClause?.namedBindings;
        if (named && ts.isNamedImports(named))
          for (const el of named.elements)
            if ((el.propertyName ?? el.name).text === 'verify' && !VERIFIERS.has(el.name.text)) verifierImports.push(where(rel, sf, el));
      }
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /(^|\/)lib\/passwords$/.test(node.moduleSpecifier.text)) {
        const named = node.importClause?.namedBindings;
        if (named && ts.isNamedImports(named))
          for (const el of named.elements)
            if ((el.propertyName ?? el.name).text === 'verifyPassword' && el.name.text !== 'verifyPassword') verifierImports.push(where(rel, sf, el));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const fileOf = new Map<ts.Node, { rel: string; sf: ts.SourceFile }>();
  for (const s of sources) fileOf.set(s.sf, s);

  /** Guarded: inside a guard callback, or in a named helper that is called, and only from guarded places (3 levels at most). */
  const guarded = (node: ts.Node, depth: number): boolean => {
    if (inGuardCallback(node)) return true;
    const name = enclosingName(node);
    if (!name || depth >= 3) return false;
    const callers = (callsByName.get(name) ?? []).filter((c) => c !== node);
    return callers.length > 0 && callers.every((c) => guarded(c, depth + 1));
  };
  const unguarded = verifierCalls
    .filter(({ call }) => !guarded(call, 0))
    .map(({ rel, call }) => where(rel, fileOf.get(call.getSourceFile())?.sf ?? call.getSourceFile(), call));
  return { unguarded, sites: [...sites].sort(), verifierImports };
}

const identity = 'subgraphs/finance/identity/domain';
const registry = 'subgraphs/registry/licensing/domain';

/**
 * Every secret site (a function that guards a secret) → the endpoints that exercise it: the rows of
 * the concurrency tables (test/finance/contract/secret-throttle.test.ts, FINANCE_ENDPOINTS; and
 * test/registry/contract/secret-throttle.test.ts, VENDOR_ENDPOINTS), each fired with 40 concurrent
 * wrong guesses. test/platform/lint/secret-sites.test.ts requires the keys to be exactly the sites found.
 */
export const SECRET_SITES: Record<string, string[]> = {
  [`${identity}/identity-service.ts#checkPassword`]: [
    'POST /api/login/ (password)',
    'POST /admin/login/ (password)',
    'POST /api/v1/cards/<id>/reveal/ (password)',
  ],
  [`${identity}/identity-service.ts#currentPasswordHolds`]: [
    'POST /api/auth/password/ (current_password)',
    'POST /api/auth/2fa/enrol/ (current_password)',
    'DELETE /api/auth/2fa/ (current_password)',
  ],
  [`${identity}/identity-service.ts#checkTotp`]: ['POST /api/login/ (otp)', 'DELETE /api/auth/2fa/ (otp)', 'POST /api/auth/2fa/recovery-codes/ (otp)'],
  [`${identity}/identity-service.ts#checkRecoveryCode`]: ['POST /api/login/ (recovery_code)'],
  [`${identity}/identity-service.ts#confirmTotpEnrolment`]: ['POST /api/auth/2fa/confirm/ (otp)'],
  [`${identity}/onboarding.ts#verifyEmail`]: ['POST /api/auth/email/verify/ (token)'],
  [`${identity}/onboarding.ts#confirmPasswordReset`]: ['POST /api/auth/password/reset/confirm/ (token)'],
  [`${identity}/phone-verification.ts#verify`]: ['POST /api/v1/profile/phone/verify/ (code, from 40 addresses)'],
  [`${registry}/workspace.ts#signIn`]: ['POST /workspace/login/ (password)'],
  [`${registry}/workspace.ts#setPassword`]: ['POST /workspace/password/ (link token)'],
  [`${registry}/licences.ts#authenticate`]: ['x-license-key (unknown key)'],
  ['subgraphs/predictions/access/domain/applications.ts#verifyInboundSecret']: ['POST /api/applications/inbound-email/ (X-Inbound-Mail-Secret)'],
};

/** The endpoints of the tables that exercise sites of `prefix` (a product's subgraphs). */
export const endpointsUnder = (...prefixes: string[]) =>
  Object.entries(SECRET_SITES)
    .filter(([site]) => prefixes.some((p) => site.startsWith(p)))
    .flatMap(([, endpoints]) => endpoints);
