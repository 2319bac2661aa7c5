import { createHash } from 'node:crypto';
import { badInput, DomainError } from '../../../../lib/errors';
import type { ObjectStore } from '../../../../lib/object-store';
import { safeFetch } from '../safe-fetch';
import type { BrandingRow, StoredAsset, WorkspaceStore } from '../store/workspace-store';
import type { AuditLog } from './audit';

/** The entitlement that unlocks whitelabel branding and custom frontend builds. */
export const WHITELABEL_ENTITLEMENT = 'enterprise-whitelabel';

/** Replicated's Enterprise Portal limits: logo up to 2 MB, favicon up to 500 kB. */
export const ASSET_LIMITS = { logo: 2 * 1024 * 1024, favicon: 500 * 1024 } as const;
export type AssetKind = keyof typeof ASSET_LIMITS;

/** WCAG 2.x: 4.5:1 for text; 3:1 for large text and interface components (buttons, links, focus rings). */
export const TEXT_CONTRAST = 4.5;
export const COMPONENT_CONTRAST = 3;

export const notEntitled = () =>
  new DomainError('NOT_ENTITLED', 403, `Whitelabel branding needs the ${WHITELABEL_ENTITLEMENT} entitlement; ask your vendor to add it to your organisation.`, {
    entitlement: WHITELABEL_ENTITLEMENT,
  });

/** `#rgb` or `#rrggbb` → `#rrggbb` (lower case); anything else is refused naming the field. */
export function parseHexColour(value: string, field: string): string {
  const text = (value ?? '').trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  throw badInput(`${field} must be a hex colour such as #1a73e8.`, { [field]: ['a hex colour, #rgb or #rrggbb'] });
}

/** WCAG relative luminance of an sRGB colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface ColourContrast {
  colour: string;
  againstWhite: number;
  againstBlack: number;
  /** The text colour to put on it: whichever contrasts more. */
  textColour: '#ffffff' | '#000000';
}

export function contrastOf(colour: string): ColourContrast {
  const againstWhite = Math.round(contrastRatio(colour, '#ffffff') * 100) / 100;
  const againstBlack = Math.round(contrastRatio(colour, '#000000') * 100) / 100;
  return { colour, againstWhite, againstBlack, textColour: againstWhite >= againstBlack ? '#ffffff' : '#000000' };
}

/**
 * The client puts buttons and links in the primary and accent colours on a white page, and text on
 * them in the better of white and black: each colour must reach 3:1 against white (a component) and
 * its text 4.5:1.
 */
export function checkContrast(colour: string, field: string): ColourContrast {
  const c = contrastOf(colour);
  if (c.againstWhite < COMPONENT_CONTRAST) {
    throw badInput(
      `${field} ${colour} is too light on a white page (contrast ${c.againstWhite}:1, WCAG needs ${COMPONENT_CONTRAST}:1); choose a darker colour.`,
      {
        [field]: [`contrast against white ${c.againstWhite}:1 < ${COMPONENT_CONTRAST}:1`],
      },
    );
  }
  if (Math.max(c.againstWhite, c.againstBlack) < TEXT_CONTRAST) {
    throw badInput(`${field} ${colour}: neither white nor black text reaches ${TEXT_CONTRAST}:1 on it.`, { [field]: ['text contrast too low'] });
  }
  return c;
}

/** Image types accepted, by their magic bytes (never the server's Content-Type). SVG is refused: it can carry scripts. */
export function sniffImage(bytes: Buffer): string | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  return undefined;
}

export interface BrandingInput {
  displayName: string;
  primaryColor: string;
  accentColor: string;
  /** Fetched once (SSRF-safe) by the first build, then kept with the version; the same URL again keeps the stored copy. */
  logoUrl?: string | null;
  faviconUrl?: string | null;
  /** Uploaded instead of a URL (base64 in GraphQL, a file field in the workspace form). */
  logo?: Buffer | null;
  favicon?: Buffer | null;
  /** The finance node's public address (https only): where the Android and iOS apps open the client. */
  publicUrl?: string | null;
}

/** The node's public address as the mobile apps open it: https, no credentials, or nothing. */
export function parsePublicUrl(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.username || url.password || text.length > 2000) {
    throw badInput('publicUrl must be the https address of your finance node’s web client, such as https://wallet.example.com/app/.', {
      publicUrl: ['an https URL'],
    });
  }
  return url.href;
}

export interface BrandingSettings {
  allowPrivateAssetHosts: boolean;
  fetchTimeoutMs: number;
}

/**
 * Whitelabel branding of an organisation (entitlement enterprise-whitelabel): display name, colours
 * (hex, contrast-checked), logo and favicon (fetched once or uploaded, type checked by magic bytes,
 * kept in the object store). Every save is a new version; the newest is the branding.
 */
export class BrandingService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly objects: ObjectStore,
    private readonly audit: AuditLog,
    private readonly settings: BrandingSettings,
  ) {}

  async assertEntitled(organisationId: string): Promise<void> {
    if (!(await this.store.entitlements(organisationId)).includes(WHITELABEL_ENTITLEMENT)) throw notEntitled();
  }

  current(organisationId: string): Promise<BrandingRow | undefined> {
    return this.store.branding(organisationId);
  }

  version(organisationId: string, version: number): Promise<BrandingRow | undefined> {
    return this.store.branding(organisationId, version);
  }

  versions(organisationId: string): Promise<BrandingRow[]> {
    return this.store.brandingVersions(organisationId);
  }

  /** Validates everything before anything is stored; a refused save changes nothing. */
  async save(organisationId: string, input: BrandingInput, actor: string): Promise<BrandingRow> {
    await this.assertEntitled(organisationId);
    const displayName = (input.displayName ?? '').trim();
    if (!displayName || displayName.length > 80) throw badInput('displayName must be 1 to 80 characters.', { displayName: ['1 to 80 characters'] });
    const primaryColor = parseHexColour(input.primaryColor, 'primaryColor');
    const accentColor = parseHexColour(input.accentColor, 'accentColor');
    checkContrast(primaryColor, 'primaryColor');
    checkContrast(accentColor, 'accentColor');
    const publicUrl = parsePublicUrl(input.publicUrl);
    const previous = await this.store.branding(organisationId);
    const logo = await this.asset(organisationId, 'logo', input.logo, input.logoUrl, previous?.logoUrl, previous?.logo);
    const favicon = await this.asset(organisationId, 'favicon', input.favicon, input.faviconUrl, previous?.faviconUrl, previous?.favicon);
    const row = await this.store.insertBranding({
      organisationId,
      displayName,
      primaryColor,
      accentColor,
      logoUrl: logo.url,
      logo: logo.stored,
      faviconUrl: favicon.url,
      favicon: favicon.stored,
      publicUrl,
      createdBy: actor,
    });
    await this.audit.record(undefined, {
      action: 'branding.saved',
      actor,
      organisationId,
      subjectType: 'branding',
      subjectId: `${organisationId}:${row.version}`,
      details: {
        version: row.version,
        displayName,
        primaryColor,
        accentColor,
        publicUrl,
        logo: logo.stored?.sha256 ?? null,
        favicon: favicon.stored?.sha256 ?? null,
      },
    });
    return row;
  }

  /** An asset's bytes (the build bakes them in). */
  async bytes(asset: StoredAsset): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.objects.get(asset.key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * An asset of a save: an upload is checked and stored now; a URL is checked for its form now and
   * fetched once, by the first build that needs it (`resolveAssets`); the same URL as the previous
   * version's keeps the stored copy.
   */
  private async asset(
    organisationId: string,
    kind: AssetKind,
    uploaded: Buffer | null | undefined,
    urlInput: string | null | undefined,
    previousUrl: string | null | undefined,
    previous: StoredAsset | null | undefined,
  ): Promise<{ url: string | null; stored: StoredAsset | null }> {
    if (uploaded && uploaded.length > 0) return { url: null, stored: await this.storeAsset(organisationId, kind, uploaded) };
    const url = urlInput?.trim() || null;
    if (!url) return { url: null, stored: null };
    if (!/^https?:\/\/[^\s/?#@]+(\/[^\s]*)?$/i.test(url) || url.length > 2000) {
      throw badInput(`${kind}Url must be an http(s) URL.`, { [`${kind}Url`]: ['an http(s) URL'] });
    }
    return { url, stored: url === previousUrl && previous ? previous : null };
  }

  /** Fetches (once: the copy is kept with the version) the assets a branding version names by URL; refused fetches fail the caller. */
  async resolveAssets(branding: BrandingRow): Promise<BrandingRow> {
    let row = branding;
    for (const kind of ['logo', 'favicon'] as const) {
      const url = row[`${kind}Url`];
      if (!url || row[kind]) continue;
      const { bytes } = await safeFetch(url, {
        maxBytes: ASSET_LIMITS[kind],
        timeoutMs: this.settings.fetchTimeoutMs,
        maxRedirects: 3,
        allowPrivate: this.settings.allowPrivateAssetHosts,
      });
      const stored = await this.storeAsset(row.organisationId, kind, bytes);
      row = { ...row, [kind]: stored };
      await this.store.setBrandingAsset(row.organisationId, row.version, kind, stored);
    }
    return row;
  }

  private async storeAsset(organisationId: string, kind: AssetKind, bytes: Buffer): Promise<StoredAsset> {
    if (bytes.length > ASSET_LIMITS[kind]) throw badInput(`The ${kind} is larger than ${ASSET_LIMITS[kind]} bytes.`, { [kind]: ['too large'] });
    const contentType = sniffImage(bytes);
    if (!contentType) throw badInput(`The ${kind} is not a PNG, JPEG, GIF, WebP or ICO image.`, { [kind]: ['not an accepted image type'] });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // content-addressed: the same image is stored once per organisation
    const key = `branding/${organisationId}/${kind}-${sha256}`;
    await this.objects.put(key, bytes, { contentType, size: bytes.length });
    return { key, contentType, size: bytes.length, sha256 };
  }
}
