// The deployment rules of DESIGN.md section 6 (and the security baseline), checked on rendered
// manifests. Each check returns human-readable problems; an empty list means the rule holds.
import { connectionBudgetErrors } from './connection-budget.js';
import { autoscalers, id, ofKind, podTemplate, selects, type LabelSelector, type Resource } from './resource.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Container = any;

function containersOf(r: Resource): Container[] {
  const spec = podTemplate(r)?.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

/** Long-running workloads: every container is probed and sized. */
export function probeAndResourceErrors(resources: Resource[]): string[] {
  const errors: string[] = [];
  for (const r of resources.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
    for (const c of podTemplate(r)?.spec?.containers ?? []) {
      const where = `${id(r)} container ${c.name}`;
      if (!c.image) errors.push(`${where}: no image`);
      if (!c.readinessProbe) errors.push(`${where}: no readinessProbe`);
      if (!c.livenessProbe) errors.push(`${where}: no livenessProbe`);
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) errors.push(`${where}: no cpu and memory requests`);
      if (!c.resources?.limits?.memory) errors.push(`${where}: no memory limit`);
    }
  }
  return errors;
}

/** App Deployments probe the health endpoints every process exposes. */
export function healthEndpointErrors(resources: Resource[]): string[] {
  const errors: string[] = [];
  for (const r of ofKind(resources, 'Deployment')) {
    for (const c of podTemplate(r)?.spec?.containers ?? []) {
      if (c.readinessProbe?.httpGet?.path !== '/health/ready') errors.push(`${id(r)}: readinessProbe is not GET /health/ready`);
      if (c.livenessProbe?.httpGet?.path !== '/health/live') errors.push(`${id(r)}: livenessProbe is not GET /health/live`);
    }
  }
  return errors;
}

/** Every pod: non-root, read-only root filesystem, no privilege escalation, no capabilities. */
export function securityContextErrors(resources: Resource[]): string[] {
  const errors: string[] = [];
  for (const r of resources.filter((x) => podTemplate(x))) {
    const pod = podTemplate(r)!.spec ?? {};
    for (const c of containersOf(r)) {
      const sc = { ...pod.securityContext, ...c.securityContext };
      const where = `${id(r)} container ${c.name}`;
      if (sc.runAsNonRoot !== true) errors.push(`${where}: runAsNonRoot is not true`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) errors.push(`${where}: root filesystem is writable`);
      if (c.securityContext?.allowPrivilegeEscalation !== false) errors.push(`${where}: allowPrivilegeEscalation is not false`);
      if (!(c.securityContext?.capabilities?.drop ?? []).includes('ALL')) errors.push(`${where}: capabilities not dropped`);
    }
    if (pod.automountServiceAccountToken !== false) errors.push(`${id(r)}: mounts a service account token it does not use`);
    if (r.kind === 'Deployment' && !(pod.terminationGracePeriodSeconds > 0)) errors.push(`${id(r)}: no terminationGracePeriodSeconds`);
  }
  return errors;
}

/** Every Service selects pods, and its target ports exist on them (by name or by number). */
export function servicePortErrors(resources: Resource[]): string[] {
  const errors: string[] = [];
  const workloads = resources.filter((r) => podTemplate(r));
  for (const svc of ofKind(resources, 'Service')) {
    const selector: LabelSelector = { matchLabels: svc.spec?.selector ?? {} };
    const targets = workloads.filter((w) => Object.keys(selector.matchLabels!).length > 0 && selects(selector, podTemplate(w)!.metadata?.labels));
    if (targets.length === 0) {
      errors.push(`${id(svc)}: selects no pods`);
      continue;
    }
    for (const port of svc.spec.ports ?? []) {
      const target = port.targetPort ?? port.port;
      for (const w of targets) {
        const ports = containersOf(w).flatMap((c: Container) => c.ports ?? []);
        const found = ports.some((p: any) => (typeof target === 'number' ? p.containerPort === target : p.name === target));
        if (!found) errors.push(`${id(svc)}: targetPort ${target} is not a container port of ${id(w)}`);
      }
    }
  }
  return errors;
}

/** ConfigMaps and Secrets that pods reference exist (kustomize renames generated ones). */
export function referenceErrors(resources: Resource[]): string[] {
  const names = (kind: string) => new Set(ofKind(resources, kind).map((r) => r.metadata.name));
  const configMaps = names('ConfigMap');
  const secrets = names('Secret');
  // CloudNativePG makes `<cluster>-app` (the application owner's credentials) unless given one.
  for (const cluster of ofKind(resources, 'Cluster').filter((c) => c.apiVersion.startsWith('postgresql.cnpg.io/'))) {
    if (!cluster.spec?.bootstrap?.initdb?.secret) secrets.add(`${cluster.metadata.name}-app`);
  }
  const errors: string[] = [];
  for (const r of resources.filter((x) => podTemplate(x))) {
    const pod = podTemplate(r)!.spec ?? {};
    const refs: [string, string | undefined][] = [];
    for (const c of containersOf(r)) {
      for (const e of c.envFrom ?? []) refs.push(['ConfigMap', e.configMapRef?.name], ['Secret', e.secretRef?.name]);
      for (const e of c.env ?? []) refs.push(['ConfigMap', e.valueFrom?.configMapKeyRef?.name], ['Secret', e.valueFrom?.secretKeyRef?.name]);
    }
    for (const v of pod.volumes ?? []) refs.push(['ConfigMap', v.configMap?.name], ['Secret', v.secret?.secretName]);
    for (const [kind, name] of refs) {
      if (name && !(kind === 'ConfigMap' ? configMaps : secrets).has(name)) errors.push(`${id(r)}: references missing ${kind} ${name}`);
    }
  }
  return errors;
}

/**
 * The namespace denies all ingress by default; pods of the services admit only the gateway, pods
 * of the workers (component=worker) nobody: the monitoring namespace's scraper is the one caller
 * both may also admit.
 */
export function networkPolicyErrors(resources: Resource[]): string[] {
  const policies = ofKind(resources, 'NetworkPolicy');
  const errors: string[] = [];
  const denyAll = policies.some(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      (p.spec?.policyTypes ?? []).includes('Ingress') &&
      (p.spec?.ingress ?? []).length === 0,
  );
  if (!denyAll) errors.push('no default-deny ingress NetworkPolicy (podSelector {}, policyTypes [Ingress], no rules)');

  const gatewayPods = ofKind(resources, 'Deployment').filter((d) => d.metadata.name === 'gateway').map((d) => podTemplate(d)!.metadata?.labels ?? {});
  if (gatewayPods.length === 0) errors.push('no gateway Deployment');

  for (const d of ofKind(resources, 'Deployment').filter((x) => x.metadata.name !== 'gateway')) {
    const labels = podTemplate(d)!.metadata?.labels ?? {};
    const worker = labels['app.kubernetes.io/component'] === 'worker';
    const admitting = policies.filter((p) => selects(p.spec?.podSelector, labels) && (p.spec?.policyTypes ?? []).includes('Ingress'));
    for (const p of admitting) {
      for (const rule of p.spec.ingress ?? []) {
        const peers = rule.from ?? [];
        if (peers.length === 0) errors.push(`${id(p)} admits anyone to ${id(d)}`);
        for (const peer of peers) {
          const fromGateway = !peer.namespaceSelector && !peer.ipBlock && gatewayPods.some((g) => selects(peer.podSelector, g));
          // Metrics scraping by the monitoring namespace is the one other admitted caller.
          const fromMonitoring = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring' && !peer.podSelector;
          if (worker && !fromMonitoring) errors.push(`${id(p)} admits ${JSON.stringify(peer)} to worker ${id(d)}, which takes no inbound traffic`);
          else if (!fromGateway && !fromMonitoring) errors.push(`${id(p)} admits ${JSON.stringify(peer)} to ${id(d)}, which is not the gateway`);
        }
      }
    }
  }
  return errors;
}

/** Everything public goes to the gateway; `/` and `/ws` exist; uploads and sockets are provided for. */
export function ingressErrors(resources: Resource[]): string[] {
  const ingresses = ofKind(resources, 'Ingress');
  const errors: string[] = [];
  const paths = ingresses.flatMap((ing) =>
    (ing.spec?.rules ?? []).flatMap((rule: any) => (rule.http?.paths ?? []).map((p: any) => ({ ing, path: p.path as string, backend: p.backend }))),
  );
  if (ingresses.some((i) => i.spec?.defaultBackend)) errors.push('an Ingress has a defaultBackend');
  for (const { ing, path, backend } of paths) {
    if (backend?.service?.name !== 'gateway') errors.push(`${id(ing)} routes ${path} to ${backend?.service?.name ?? JSON.stringify(backend)}, not the gateway`);
  }
  const root = paths.find((p) => p.path === '/');
  if (!root) errors.push('no Ingress routes / (to the gateway)');
  const ws = paths.find((p) => p.path === '/ws');
  if (!ws) errors.push('no Ingress routes /ws');
  else if (Number(ws.ing.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout'] ?? 60) < 3600) {
    errors.push(`${id(ws.ing)}: /ws read timeout under an hour`);
  }
  if (root) {
    const a = root.ing.metadata.annotations ?? {};
    const size = /^(\d+)([kmg]?)$/i.exec(a['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m');
    const bytes = size ? Number(size[1]) * { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }[size[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'] : 0;
    if (bytes < 2 * 2 ** 30) errors.push(`${id(root.ing)}: proxy-body-size below 2 GB`);
    if (a['nginx.ingress.kubernetes.io/proxy-request-buffering'] !== 'off') errors.push(`${id(root.ing)}: request buffering is on`);
  }
  return errors;
}

/** The gateway and every worker autoscale, and every Deployment and StatefulSet has a PodDisruptionBudget. */
export function availabilityErrors(resources: Resource[]): string[] {
  const errors: string[] = [];
  const hpas = ofKind(resources, 'HorizontalPodAutoscaler');
  const pdbs = ofKind(resources, 'PodDisruptionBudget');
  if (!hpas.some((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === 'gateway')) {
    errors.push('no HorizontalPodAutoscaler for the gateway');
  }
  const scalers = autoscalers(resources);
  for (const d of ofKind(resources, 'Deployment').filter((x) => podTemplate(x)!.metadata?.labels?.['app.kubernetes.io/component'] === 'worker')) {
    if (!scalers.some((a) => a.target.kind === 'Deployment' && a.target.name === d.metadata.name)) {
      errors.push(`${id(d)}: a worker without a HorizontalPodAutoscaler or ScaledObject`);
    }
  }
  for (const { resource, target } of scalers) {
    if (!ofKind(resources, target.kind ?? '').some((d) => d.metadata.name === target.name)) {
      errors.push(`${id(resource)}: scales a missing ${target.kind}/${target.name}`);
    }
  }
  // Two autoscalers on one workload fight over its replica count (KEDA's own HorizontalPodAutoscaler against ours).
  for (const [i, a] of scalers.entries()) {
    const other = scalers.slice(i + 1).find((b) => b.target.kind === a.target.kind && b.target.name === a.target.name);
    if (other) errors.push(`${a.target.kind}/${a.target.name}: scaled by both ${id(a.resource)} and ${id(other.resource)}`);
  }
  // The stateful parts too: without a budget a node drain evicts the database or the bus at will.
  for (const workload of [...ofKind(resources, 'Deployment'), ...ofKind(resources, 'StatefulSet')]) {
    if (!pdbs.some((p) => selects(p.spec?.selector, podTemplate(workload)!.metadata?.labels))) errors.push(`${id(workload)}: no PodDisruptionBudget`);
  }
  for (const d of ofKind(resources, 'Deployment')) {
    if (d.spec?.strategy?.type && d.spec.strategy.type !== 'RollingUpdate') errors.push(`${id(d)}: not a rolling update`);
  }
  return errors;
}

export function designRuleErrors(resources: Resource[]): string[] {
  return [
    ...probeAndResourceErrors(resources),
    ...healthEndpointErrors(resources),
    ...securityContextErrors(resources),
    ...servicePortErrors(resources),
    ...referenceErrors(resources),
    ...networkPolicyErrors(resources),
    ...ingressErrors(resources),
    ...availabilityErrors(resources),
    ...connectionBudgetErrors(resources),
  ];
}
