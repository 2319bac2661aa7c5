import semver from 'semver';

/*
 * The registry's published words: release versions (SemVer) and channels. The domain, the store and the
 * REST surface's validation share them; it holds no rule of the registry beyond what a version or channel is.
 */

/**
 * Release versions are SemVer 2.0.0, compared by its precedence rules (§11): prereleases sort before
 * their release (`1.2.0-rc.1 < 1.2.0`), numeric identifiers numerically (`beta.2 < beta.11`),
 * alphanumeric ones in ASCII order, build metadata ignored.
 */
export function parseVersion(value: string): string | undefined {
  const text = value.trim();
  // node-semver forgives a leading `v` or `=`; SemVer itself does not
  const parsed = /^\d/.test(text) ? semver.parse(text, { loose: false }) : null;
  return parsed ? parsed.version : undefined;
}

export const isVersion = (value: string) => parseVersion(value) !== undefined;

/** <0, 0, >0 as a precedes, equals, follows b. */
export const compareVersions = (a: string, b: string) => semver.compare(a, b);

/** Newest first. */
export const byVersionDescending = <T extends { version: string }>(a: T, b: T) => compareVersions(b.version, a.version);

/**
 * Release channels, as Keygen has them: a channel sees its own releases and those of every more
 * stable channel (`rc` sees rc and stable, `beta` sees beta, rc and stable, `alpha` sees all of those);
 * `dev` is isolated and sees only dev builds.
 */
export const CHANNELS = ['stable', 'rc', 'beta', 'alpha', 'dev'] as const;
export type Channel = (typeof CHANNELS)[number];

const VISIBLE: Record<Channel, readonly Channel[]> = {
  stable: ['stable'],
  rc: ['stable', 'rc'],
  beta: ['stable', 'rc', 'beta'],
  alpha: ['stable', 'rc', 'beta', 'alpha'],
  dev: ['dev'],
};

export const visibleChannels = (channel: Channel): readonly Channel[] => VISIBLE[channel];
export const isChannel = (value: string): value is Channel => (CHANNELS as readonly string[]).includes(value);

/**
 * Maintenance coverage: a release is covered when it was published (or is backdated to) no later
 * than the last day of the licence's maintenance, that whole day (UTC) included. Releases published
 * later are not downloadable on that licence; earlier ones keep working.
 */
export function maintenanceCovers(maintenanceUntil: string, releasedAt: Date): boolean {
  const end = Date.parse(`${maintenanceUntil}T00:00:00Z`) + 86_400_000;
  return releasedAt.getTime() < end;
}
