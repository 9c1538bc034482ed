// Validates rendered manifests against the Kubernetes API schemas, two ways:
//
//  - schemaErrors: the OpenAPI schemas of the API server, compiled to validators by the
//    `kubernetes-models` package (one per apiVersion/kind): wrong types, missing required
//    fields, bad enum values. Like kubeconform's default mode, these schemas allow unknown fields.
//  - unknownFieldErrors: what kubeconform's -strict mode adds and the API server rejects
//    (field validation `Strict`): misspelt or misplaced fields such as `readinesProbe`. Every
//    manifest becomes an object literal typed with the package's TypeScript interface, and the
//    TypeScript checker's excess-property check reports any field the API does not define.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { cnpgErrors, isCnpg } from './cnpg-schema.js';
import { id, type Resource } from './resource.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Custom resources: their API group → the package with their schemas (same layout). */
const CUSTOM_RESOURCE_MODELS: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
};

/**
 * `apps/v1` → module `kubernetes-models/apps/v1/<Kind>`; core `v1` → `kubernetes-models/v1/<Kind>`;
 * `monitoring.coreos.com/v1` → `@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/<Kind>`.
 */
function modelPath({ apiVersion, kind }: Resource): string {
  const pkg = CUSTOM_RESOURCE_MODELS[apiVersion.split('/')[0]!] ?? 'kubernetes-models';
  return `${pkg}/${apiVersion}/${kind}`;
}

interface Model {
  validate(): void;
}

/**
 * kustomize folds long base64 Secret values over several lines; the API server's base64 decoder
 * skips line breaks, but the schema's `format: byte` pattern does not.
 */
function asApiServerReads(resource: Resource): Resource {
  if (resource.kind !== 'Secret' || !resource.data) return resource;
  const data = Object.fromEntries(Object.entries(resource.data).map(([k, v]) => [k, v.replace(/\s+/g, '')]));
  return { ...resource, data };
}

export async function schemaErrors(resources: Resource[]): Promise<string[]> {
  const errors: string[] = [];
  for (const resource of resources) {
    // CloudNativePG's resources: checked against the fields written in cnpg-schema.ts, strictly.
    if (isCnpg(resource)) {
      errors.push(...cnpgErrors(resource));
      continue;
    }
    let Model: new (data: unknown) => Model;
    try {
      const mod = (await import(modelPath(resource))) as Record<string, new (data: unknown) => Model>;
      Model = mod[resource.kind]!;
      if (typeof Model !== 'function') throw new Error('no model class');
    } catch {
      errors.push(`${id(resource)}: no schema for ${resource.apiVersion} ${resource.kind}`);
      continue;
    }
    try {
      new Model(asApiServerReads(resource)).validate();
    } catch (err) {
      errors.push(`${id(resource)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return errors;
}

export function unknownFieldErrors(all: Resource[]): string[] {
  // CloudNativePG's resources have no TypeScript model; schemaErrors checks their fields strictly.
  const resources = all.filter((resource) => !isCnpg(resource));
  // A virtual file inside the repository, so module resolution finds node_modules.
  const fileName = join(here, '__rendered_manifests__.ts');
  const imports = new Map<string, string>();
  const lines = resources.map((resource, i) => {
    const alias = `T${i}`;
    imports.set(alias, `import type { I${resource.kind} as ${alias} } from '${modelPath(resource)}';`);
    return `export const r${i}: ${alias} = ${JSON.stringify(resource)};`;
  });
  // One import per line, then one manifest per line: a diagnostic's line number names its manifest.
  const header = [...imports.values()];
  const source = [...header, ...lines].join('\n');

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, language, true) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === fileName || fileExists(name);

  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file?.fileName !== fileName || d.start === undefined) return message;
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    const resource = resources[line - header.length];
    return resource ? `${id(resource)}: ${message}` : message;
  });
}
