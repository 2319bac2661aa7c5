import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvFromSource } from 'kubernetes-models/v1/EnvFromSource';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import type { IService } from 'kubernetes-models/v1/Service';
import { stringify } from 'yaml';

/**
 * Kubernetes objects for one stateless process (a Deployment, its Service, its autoscaler and
 * disruption budget), built the same way for this system's manifests (bin/kubernetes.ts) and for
 * the finance node a licence registry hands out (./finance-node.ts).
 */

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

export interface ProbePaths {
  /** The named container port probed. */
  port: string;
  liveness: string;
  readiness: string;
  /** Answers as soon as the process serves HTTP: what the startup probe waits for. */
  startup: string;
  /** How long a start may take before the container is restarted (first start: migrations, data). */
  startupSeconds: number;
}

export interface Workload {
  name: string;
  /** `app.kubernetes.io/part-of`: the system (matchday) or the product (finance-node). */
  partOf: string;
  /** `app.kubernetes.io/component`. */
  component: string;
  image: string;
  /** Unset: the image's own entry point. */
  command?: string[];
  ports: { name: string; port: number }[];
  probes: ProbePaths;
  env: IEnvVar[];
  envFrom?: IEnvFromSource[];
  resources: IResourceRequirements;
  security: ContainerSecurity;
  /** Directories the process writes (an emptyDir each): the root file system is read-only when `security.readOnlyRoot`. */
  writable?: { name: string; path: string }[];
  /** Extra pod annotations (image ids, artifact digests). */
  annotations?: Record<string, string>;
  /**
   * Replicas between `min` and `max`, scaled on CPU; a disruption budget keeps all but one up. Unset:
   * a singleton (one replica, replaced by stopping the old one first: e.g. one Telegram poller per token).
   */
  scaling?: { min: number; max: number; cpuPercent: number };
}

export interface ContainerSecurity {
  /** The image's numeric user; unset: the image's own user, still without privileges or capabilities. */
  user?: number;
  readOnlyRoot: boolean;
}

export const labelsOf = (w: Pick<Workload, 'name' | 'partOf' | 'component'>) => ({
  'app.kubernetes.io/name': w.name,
  'app.kubernetes.io/part-of': w.partOf,
  'app.kubernetes.io/component': w.component,
});

/** Selectors stay to the two labels that never change for a workload (a Deployment's selector is immutable). */
const selectorOf = (w: Pick<Workload, 'name' | 'partOf'>) => ({ 'app.kubernetes.io/name': w.name, 'app.kubernetes.io/part-of': w.partOf });

function httpProbe(path: string, port: string, periodSeconds: number, failureThreshold: number): IProbe {
  return { httpGet: { path, port }, periodSeconds, timeoutSeconds: 3, failureThreshold };
}

/** Liveness restarts a hung process, readiness takes a replica out of its Service, startup holds both until it serves. */
export function probes(p: ProbePaths): Pick<IContainer, 'livenessProbe' | 'readinessProbe' | 'startupProbe'> {
  const period = 5;
  return {
    startupProbe: httpProbe(p.startup, p.port, period, Math.ceil(p.startupSeconds / period)),
    livenessProbe: httpProbe(p.liveness, p.port, 10, 3),
    readinessProbe: httpProbe(p.readiness, p.port, period, 2),
  };
}

function containerSecurity(s: ContainerSecurity): Pick<IContainer, 'securityContext'> {
  return {
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: s.readOnlyRoot,
      ...(s.user !== undefined ? { runAsNonRoot: true, runAsUser: s.user, runAsGroup: s.user } : {}),
    },
  };
}

/** The pod of a process or a one-off task: hardened, no service account token, scratch directories. */
export function podSpec(
  w: Pick<Workload, 'name' | 'image' | 'command' | 'env' | 'envFrom' | 'resources' | 'security' | 'writable'>,
  container: Partial<IContainer>,
): IPodSpec {
  const writable = w.writable ?? [];
  return {
    automountServiceAccountToken: false,
    securityContext: { seccompProfile: { type: 'RuntimeDefault' }, ...(w.security.user !== undefined ? { fsGroup: w.security.user } : {}) },
    containers: [
      {
        name: w.name,
        image: w.image,
        ...(w.command ? { command: w.command } : {}),
        env: w.env,
        ...(w.envFrom?.length ? { envFrom: w.envFrom } : {}),
        resources: w.resources,
        ...containerSecurity(w.security),
        ...(writable.length ? { volumeMounts: writable.map((v) => ({ name: v.name, mountPath: v.path })) } : {}),
        ...container,
      },
    ],
    ...(writable.length ? { volumes: writable.map((v) => ({ name: v.name, emptyDir: {} })) } : {}),
  };
}

/** The Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget of one stateless process. */
export function workloadObjects(w: Workload): KubernetesObject[] {
  const labels = labelsOf(w);
  const deployment: IDeployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: w.name, labels },
    spec: {
      // with an autoscaler, the autoscaler owns the replica count (an apply would otherwise reset it)
      ...(w.scaling ? {} : { replicas: 1 }),
      selector: { matchLabels: selectorOf(w) },
      strategy: w.scaling ? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } : { type: 'Recreate' },
      template: {
        metadata: { labels, ...(w.annotations ? { annotations: w.annotations } : {}) },
        spec: {
          ...podSpec(w, {
            ports: w.ports.map((p) => ({ name: p.name, containerPort: p.port, protocol: 'TCP' })),
            ...probes(w.probes),
            // the Service stops sending new requests before the process is told to stop
            lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          }),
          terminationGracePeriodSeconds: 30,
          ...(w.scaling
            ? {
                topologySpreadConstraints: [
                  { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: selectorOf(w) } },
                ],
              }
            : {}),
        },
      },
    },
  };
  const service: IService = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: w.name, labels },
    spec: {
      type: 'ClusterIP',
      selector: selectorOf(w),
      ports: w.ports.map((p) => ({ name: p.name, port: p.port, targetPort: p.name, protocol: 'TCP' })),
    },
  };
  if (!w.scaling) return [deployment, service];
  const autoscaler: IHorizontalPodAutoscaler = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: w.name, labels },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: w.name },
      minReplicas: w.scaling.min,
      maxReplicas: w.scaling.max,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: w.scaling.cpuPercent } } }],
    },
  };
  const budget: IPodDisruptionBudget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: w.name, labels },
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorOf(w) } },
  };
  return [deployment, service, autoscaler, budget];
}

/** A one-off task (a migration): retried a few times, removed a while after it finished. */
export function jobObject(
  w: Pick<Workload, 'name' | 'partOf' | 'component' | 'image' | 'command' | 'env' | 'envFrom' | 'resources' | 'security' | 'writable'> & {
    annotations?: Record<string, string>;
    deadlineSeconds: number;
  },
): IJob {
  const labels = labelsOf(w);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: w.name, labels, ...(w.annotations ? { annotations: w.annotations } : {}) },
    spec: {
      backoffLimit: 3,
      activeDeadlineSeconds: w.deadlineSeconds,
      // gone 10 minutes after it finished: the next release's apply creates it anew
      ttlSecondsAfterFinished: 600,
      template: { metadata: { labels }, spec: { ...podSpec(w, {}), restartPolicy: 'Never' } },
    },
  };
}

/** Objects as one multi-document YAML file, after a comment header. */
export function toYaml(objects: readonly object[], header: readonly string[]): string {
  const comment = header.map((line) => (line ? `# ${line}` : '#')).join('\n');
  const documents = objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false, singleQuote: true }).trimEnd());
  return `${comment}\n${documents.map((d) => `---\n${d}`).join('\n')}\n`;
}

export const secretRef = (name: string, secret: string, key: string = name, optional = false): IEnvVar => ({
  name,
  valueFrom: { secretKeyRef: { name: secret, key, ...(optional ? { optional: true } : {}) } },
});

export const plainEnv = (values: Record<string, string>): IEnvVar[] => Object.entries(values).map(([name, value]) => ({ name, value }));
