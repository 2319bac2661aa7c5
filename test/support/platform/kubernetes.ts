import { execFileSync } from 'node:child_process';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ObjectMeta } from '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import type { KubernetesObject } from '../../../lib/kubernetes/workload';

/**
 * Kubernetes manifests checked without a cluster: rendered by `kubectl kustomize`, every object
 * validated against the Kubernetes API's JSON schemas (kubernetes-models, generated from the API's
 * OpenAPI document) or, for CloudNativePG's resources, against the fields these manifests use.
 */

/** kubectl from KUBECTL or the PATH. Missing: a failure saying how to get it, never a skipped test. */
export function kubectl(): string {
  const bin = process.env.KUBECTL ?? 'kubectl';
  try {
    execFileSync(bin, ['version', '--client'], { stdio: 'pipe' });
  } catch {
    throw new Error(
      `kubectl is missing (tried "${bin}"): the Kubernetes manifests are rendered with \`kubectl kustomize\`. ` +
        'Install it (Debian: `apt-get install kubernetes-client`; .ci/run does) or set KUBECTL to its path.',
    );
  }
  return bin;
}

/** The objects `kubectl kustomize <dir>` renders. */
export function kustomize(dir: string): KubernetesObject[] {
  const yaml = execFileSync(kubectl(), ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return parseYamlObjects(yaml);
}

export function parseYamlObjects(yaml: string): KubernetesObject[] {
  return parseAllDocuments(yaml)
    .map((d) => {
      if (d.errors.length) throw new Error(`invalid YAML: ${d.errors.map((e) => e.message).join('; ')}`);
      return d.toJS() as KubernetesObject | null;
    })
    .filter((o): o is KubernetesObject => o !== null);
}

interface Validating {
  validate(): void;
}
type ModelClass = new (data: never) => Validating;

const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
};

const validWith =
  (Model: ModelClass) =>
  (value: unknown): boolean => {
    new Model(value as never).validate();
    return true;
  };
const quantity = z.string().regex(/^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/, 'a Kubernetes quantity');
const secretKeySelector = z.object({ name: z.string().min(1), key: z.string().min(1) }).strict();
const localObjectReference = z.object({ name: z.string().min(1) }).strict();
const compression = z.object({ compression: z.enum(['gzip', 'bzip2', 'snappy']) }).strict();

/**
 * CloudNativePG (postgresql.cnpg.io/v1): the fields these manifests use, with their types and
 * enumerations from its API reference; any other field fails, as the API server's strict field
 * validation of the CRD would. The operator's CRDs are no npm package, so there is no full schema offline.
 */
const CNPG = {
  Cluster: z
    .object({
      instances: z.number().int().min(1),
      imageName: z.string().optional(),
      primaryUpdateStrategy: z.enum(['unsupervised', 'supervised']).optional(),
      enableSuperuserAccess: z.boolean().optional(),
      postgresql: z
        .object({ parameters: z.record(z.string(), z.string()) })
        .strict()
        .optional(),
      bootstrap: z
        .object({ initdb: z.object({ database: z.string().min(1), owner: z.string().min(1), secret: localObjectReference.optional() }).strict() })
        .strict()
        .optional(),
      storage: z.object({ size: quantity, storageClass: z.string().optional() }).strict(),
      resources: z
        .unknown()
        .refine(validWith(ResourceRequirements as unknown as ModelClass))
        .optional(),
      managed: z
        .object({
          roles: z.array(
            z
              .object({
                name: z.string().min(1),
                comment: z.string().optional(),
                ensure: z.enum(['present', 'absent']).optional(),
                passwordSecret: localObjectReference.optional(),
                disablePassword: z.boolean().optional(),
                connectionLimit: z.number().int().min(-1).optional(),
                validUntil: z.string().optional(),
                inRoles: z.array(z.string().min(1)).optional(),
                ...Object.fromEntries(
                  ['inherit', 'login', 'superuser', 'createdb', 'createrole', 'replication', 'bypassrls'].map((k) => [k, z.boolean().optional()]),
                ),
              })
              .strict(),
          ),
        })
        .strict()
        .optional(),
      affinity: z.object({ enablePodAntiAffinity: z.boolean().optional(), topologyKey: z.string().optional() }).strict().optional(),
      backup: z
        .object({
          retentionPolicy: z
            .string()
            .regex(/^[1-9][0-9]*[dwm]$/)
            .optional(),
          barmanObjectStore: z
            .object({
              destinationPath: z.string().min(1),
              s3Credentials: z.object({ accessKeyId: secretKeySelector, secretAccessKey: secretKeySelector }).strict(),
              wal: compression.optional(),
              data: compression.optional(),
            })
            .strict(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  ScheduledBackup: z
    .object({
      schedule: z.string().regex(/^(\S+\s+){5}\S+$/, 'six cron fields (seconds first)'),
      backupOwnerReference: z.enum(['none', 'self', 'cluster']).optional(),
      immediate: z.boolean().optional(),
      cluster: localObjectReference,
    })
    .strict(),
} as const;

/** Throws, naming the object and every error, unless the object is valid for its kind. */
export function validateObject(object: KubernetesObject): void {
  const id = `${object.kind}/${object.metadata?.name ?? '?'}`;
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  try {
    if (Model) return new Model(object as never).validate();
    if (object.apiVersion === 'postgresql.cnpg.io/v1' && object.kind in CNPG) {
      const { apiVersion: _a, kind: _k, metadata, spec, ...rest } = object as KubernetesObject & { spec?: unknown };
      if (Object.keys(rest).length) throw new Error(`unknown fields ${Object.keys(rest).join(', ')}`);
      new ObjectMeta(metadata as never).validate();
      const parsed = CNPG[object.kind as keyof typeof CNPG].safeParse(spec);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `spec.${i.path.join('.')}: ${i.message}`).join('; '));
      return;
    }
  } catch (err) {
    throw new Error(`${id} is invalid: ${(err as Error).message}`, { cause: err });
  }
  throw new Error(`${id}: no schema for ${object.apiVersion} ${object.kind} (add its model to test/support/platform/kubernetes.ts)`);
}
