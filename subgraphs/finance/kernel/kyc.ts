/**
 * A user's identity-verification level, kept by the identity subgraph: administrators set it, and a
 * verification provider's outcome does (the service principals in KYC_LEVEL_WRITERS). Every finance
 * subgraph reads it from the caller's principal (`kycLevel`), verified with the token on each operation.
 */
export const KYC_LEVELS = ['none', 'basic', 'enhanced'] as const;
export type KycLevel = (typeof KYC_LEVELS)[number];
