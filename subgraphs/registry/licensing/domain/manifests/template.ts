import { z } from 'zod';
import { badInput } from '../../../../../lib/errors';

/**
 * A release's manifest template: its deployment described once, independently of any format, and
 * rendered per licence by a format's renderer (./index.ts). Services take their image from one of the
 * release's artifacts (`component`) or name a public image. Environment values are literals with
 * placeholders filled per licence, or a variable the customer must set (`required`) or may set
 * (`optional`, with a default).
 */
export const PLACEHOLDERS = [
  'product.code',
  'product.name',
  'release.id',
  'release.version',
  'release.channel',
  'licence.id',
  'licence.key',
  'licence.token',
  'licence.publicKey',
  'licence.maintenanceUntil',
  'organisation.name',
  'registry.url',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER_RE = /\{\{\s*([A-Za-z.]+)\s*\}\}/g;

const environmentValue = z.union([
  z.string(),
  z.number().transform(String),
  z.boolean().transform(String),
  z.object({ required: z.string().min(1).max(200) }).strict(),
  z.object({ optional: z.string().max(200), default: z.string().max(2000).default('') }).strict(),
]);

const NAME = /^[a-z][a-z0-9_-]{0,62}$/;

const service = z
  .object({
    component: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,31}$/)
      .optional(),
    image: z.string().min(1).max(300).optional(),
    command: z.array(z.string()).optional(),
    // `[host:]container`; the host port may be a variable the customer sets, with a default: `${NAME:-8000}:8000`
    ports: z.array(z.string().regex(/^((\d{1,5}|\$\{[A-Z_][A-Z0-9_]*:-\d{1,5}\}):)?\d{1,5}(\/(tcp|udp))?$/)).default([]),
    environment: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), environmentValue).default({}),
    dependsOn: z.array(z.string().regex(NAME)).default([]),
    volumes: z.array(z.string().min(1)).default([]),
    restart: z.enum(['no', 'always', 'on-failure', 'unless-stopped']).default('unless-stopped'),
  })
  .strict()
  .refine((s) => (s.component === undefined) !== (s.image === undefined), {
    message: 'a service has either a component (an artifact of the release) or an image',
  });

export const manifestTemplateSchema = z
  .object({
    services: z.record(z.string().regex(NAME), service).refine((s) => Object.keys(s).length > 0, { message: 'at least one service' }),
    volumes: z.array(z.string().regex(NAME)).default([]),
  })
  .strict();

export type ManifestTemplate = z.infer<typeof manifestTemplateSchema>;
export type EnvironmentValue = z.infer<typeof environmentValue>;

/** A template as given (GraphQL, CLI, seed), checked: its shape, its placeholders, its service references. */
export function parseManifestTemplate(input: unknown): ManifestTemplate {
  const parsed = manifestTemplateSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${['manifestTemplate', ...i.path].join('.')}: ${i.message}`);
    throw badInput(`Invalid manifest template: ${issues.join('; ')}`, { manifestTemplate: issues });
  }
  const template = parsed.data;
  const problems: string[] = [];
  for (const [name, s] of Object.entries(template.services)) {
    for (const dependency of s.dependsOn) if (!template.services[dependency]) problems.push(`services.${name}.dependsOn: no service "${dependency}"`);
    for (const [variable, value] of Object.entries(s.environment)) {
      if (typeof value !== 'string') continue;
      for (const [, placeholder] of value.matchAll(PLACEHOLDER_RE)) {
        if (!(PLACEHOLDERS as readonly string[]).includes(placeholder))
          problems.push(`services.${name}.environment.${variable}: unknown placeholder {{${placeholder}}}`);
      }
    }
  }
  if (problems.length) throw badInput(`Invalid manifest template: ${problems.join('; ')}`, { manifestTemplate: problems });
  return template;
}

/** The components whose artifacts a release needs before it can be published. */
export const templateComponents = (template: ManifestTemplate): string[] =>
  [...new Set(Object.values(template.services).flatMap((s) => (s.component ? [s.component] : [])))].sort();

export const fillPlaceholders = (value: string, values: Record<Placeholder, string>): string =>
  value.replace(PLACEHOLDER_RE, (_m, name: string) => values[name as Placeholder] ?? '');
