import { DomainError } from '../../../../lib/errors';

/**
 * The registry's error codes (the REST body shows them as `error.code`; GraphQL as `extensions.code`).
 * A missing or malformed key is the gateway's UNAUTHENTICATED / INVALID_CREDENTIALS (REST: UNAUTHORIZED).
 */
export const licenceNotFound = () => new DomainError('LICENSE_NOT_FOUND', 401, 'Unknown licence key.');
export const licenceSuspended = () => new DomainError('LICENSE_SUSPENDED', 403, 'This licence is suspended; contact your vendor.');
export const licenceRevoked = () => new DomainError('LICENSE_REVOKED', 403, 'This licence has been revoked.');
export const licenceExpired = () => new DomainError('LICENSE_EXPIRED', 403, 'This licence has expired; renew it with your vendor.');

export const rateLimited = (limit: number, resetAt: Date, now: Date) =>
  new DomainError('RATE_LIMITED', 429, `Rate limit of ${limit} requests per minute for this licence reached; retry after ${resetAt.toISOString()}.`, {
    limit,
    remaining: 0,
    resetAt: resetAt.toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  });

/** The contract's 403 FORBIDDEN (maintenance expired): the release came after the licence's maintenance end. */
export const maintenanceExpired = (version: string, releasedAt: Date, maintenanceUntil: string) =>
  new DomainError(
    'FORBIDDEN',
    403,
    `Maintenance expired: release ${version} was published on ${releasedAt.toISOString().slice(0, 10)}, after this licence's maintenance ended on ${maintenanceUntil}. Installed versions keep working; renew maintenance for newer releases.`,
    { reason: 'MAINTENANCE_EXPIRED', version, publishedAt: releasedAt.toISOString(), maintenanceUntil },
  );

export const productNotFound = (code: string) => new DomainError('PRODUCT_NOT_FOUND', 404, `Unknown product "${code}".`);
export const productNotLicensed = (code: string) => new DomainError('PRODUCT_NOT_LICENSED', 403, `This licence is not for product "${code}".`);
export const releaseNotFound = () => new DomainError('RELEASE_NOT_FOUND', 404, 'No such release.');
export const releaseYanked = (version: string) => new DomainError('RELEASE_YANKED', 410, `Release ${version} was withdrawn (yanked).`);
export const artifactNotFound = () => new DomainError('ARTIFACT_NOT_FOUND', 404, 'No such artifact.');
export const artifactNotUploaded = () => new DomainError('ARTIFACT_NOT_UPLOADED', 409, 'This artifact has not been uploaded yet.');

export const tokenUnknown = () => new DomainError('DOWNLOAD_TOKEN_INVALID', 401, 'Unknown download token.');
export const tokenUsed = () => new DomainError('DOWNLOAD_TOKEN_USED', 410, 'This download token has already been used; authorize the download again.');
export const tokenExpired = () => new DomainError('DOWNLOAD_TOKEN_EXPIRED', 410, 'This download token has expired; authorize the download again.');
export const tokenMismatch = () => new DomainError('DOWNLOAD_TOKEN_MISMATCH', 403, 'This download token is for another artifact.');

export const nodeLimitExceeded = (maxNodes: number) =>
  new DomainError('NODE_LIMIT_EXCEEDED', 422, `This licence allows ${maxNodes} concurrent node${maxNodes === 1 ? '' : 's'}, and all are in use.`, {
    maxNodes,
  });
export const deploymentNotFound = () => new DomainError('DEPLOYMENT_NOT_FOUND', 404, 'Unknown deployment key.');
