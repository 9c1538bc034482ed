// Minimal typing of rendered manifests: enough to navigate them without casting at every step.
// The full shapes are checked by the schema validation, not by these types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  [key: string]: unknown;
}

export const id = (r: Resource) => `${r.kind}/${r.metadata.name}`;

export const ofKind = (resources: Resource[], kind: string) => resources.filter((r) => r.kind === kind);

/**
 * What sets a workload's replica count: a HorizontalPodAutoscaler, or a KEDA ScaledObject (KEDA
 * makes and owns the HorizontalPodAutoscaler behind it). Both in the same terms.
 */
export interface Autoscaler {
  resource: Resource;
  target: { kind: string; name: string };
  minReplicas: number;
  maxReplicas: number;
}

export function autoscalers(resources: Resource[]): Autoscaler[] {
  return [
    ...ofKind(resources, 'HorizontalPodAutoscaler').map((h) => ({
      resource: h,
      target: { kind: h.spec?.scaleTargetRef?.kind, name: h.spec?.scaleTargetRef?.name },
      minReplicas: h.spec?.minReplicas ?? 1,
      maxReplicas: h.spec?.maxReplicas,
    })),
    // KEDA's defaults: scaleTargetRef.kind Deployment, minReplicaCount 0, maxReplicaCount 100.
    ...ofKind(resources, 'ScaledObject').map((o) => ({
      resource: o,
      target: { kind: o.spec?.scaleTargetRef?.kind ?? 'Deployment', name: o.spec?.scaleTargetRef?.name },
      minReplicas: o.spec?.minReplicaCount ?? 0,
      maxReplicas: o.spec?.maxReplicaCount ?? 100,
    })),
  ];
}

/** Kinds that run pods, with the path to their pod template. */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'];

export function podTemplate(r: Resource): { metadata?: { labels?: Record<string, string> }; spec: any } | undefined {
  return WORKLOAD_KINDS.includes(r.kind) ? r.spec?.template : undefined;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Kubernetes label-selector semantics (an empty selector selects everything). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]!);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]!);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabels && byExpressions;
}
