import { byVersionDescending, compareVersions, maintenanceCovers, parseVersion, visibleChannels } from './versions';

describe('SemVer 2.0.0 precedence (§11)', () => {
  it('orders prereleases before their release, identifiers numerically or in ASCII order', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.1.0-rc.1',
      '1.1.0',
      '1.2.0-rc.1',
      '1.2.0-rc.2',
      '1.2.0-rc.10',
      '1.2.0',
      '2.0.0',
      '10.0.0',
    ];
    const shuffled = [...ordered].sort(() => Math.random() - 0.5).map((version) => ({ version }));
    expect(shuffled.sort(byVersionDescending).map((r) => r.version)).toEqual([...ordered].reverse());
    for (let i = 1; i < ordered.length; i++) expect(compareVersions(ordered[i - 1], ordered[i])).toBeLessThan(0);
  });

  it('compares upper case before lower case (ASCII) and ignores build metadata', () => {
    expect(compareVersions('1.0.0-RC.1', '1.0.0-alpha')).toBeLessThan(0);
    expect(compareVersions('1.0.0+build.1', '1.0.0+build.2')).toBe(0);
  });

  it('accepts only SemVer versions (no leading v, no loose forms)', () => {
    expect(parseVersion('1.2.0-rc.1')).toBe('1.2.0-rc.1');
    expect(parseVersion(' 1.2.3 ')).toBe('1.2.3');
    for (const bad of ['1.2', 'v1.2.3', '1.2.3.4', '01.2.3', 'latest', '', '1.2.3-', '1.2.3-rc..1']) expect([bad, parseVersion(bad)]).toEqual([bad, undefined]);
  });
});

describe('channels (Keygen: a channel sees the more stable ones; dev is isolated)', () => {
  it('maps each channel to the channels it sees', () => {
    expect(visibleChannels('stable')).toEqual(['stable']);
    expect(visibleChannels('rc')).toEqual(['stable', 'rc']);
    expect(visibleChannels('beta')).toEqual(['stable', 'rc', 'beta']);
    expect(visibleChannels('alpha')).toEqual(['stable', 'rc', 'beta', 'alpha']);
    expect(visibleChannels('dev')).toEqual(['dev']);
  });
});

describe('maintenance coverage', () => {
  it('covers releases published on or before the last day of maintenance (UTC), that whole day included', () => {
    expect(maintenanceCovers('2025-03-01', new Date('2025-02-28T23:59:59Z'))).toBe(true);
    expect(maintenanceCovers('2025-03-01', new Date('2025-03-01T23:59:59.999Z'))).toBe(true);
    expect(maintenanceCovers('2025-03-01', new Date('2025-03-02T00:00:00Z'))).toBe(false);
  });
});
