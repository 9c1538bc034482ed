// Module boundaries (docs: DESIGN.md section 1, "Dependency rules").
//
//   frontend  → its own code, npm packages, @timeliner/proto (types only); inside it, a feature
//               (src/features/<name>) never imports another feature
//   gateway   → platform, proto
//   services  → platform, proto (never another service, never the gateway)
//   platform  → proto
//   proto     → nothing of ours
//
// Each rule matches both ways a boundary can be crossed:
//   - by path: `../../services/media/src/x.js` resolves to `services/media/src/x.ts`;
//   - by package name: `@timeliner/media`. `preserveSymlinks` keeps such an import looking like
//     `node_modules/@timeliner/media/...` instead of following the workspace symlink, and an
//     import that does not resolve at all (package not built, or not installed) keeps its bare
//     name `@timeliner/media`. PKG() matches both forms.
//
// Paths are relative to the directory the cruise starts from (the repository root for
// `npm run lint`; test/lint runs the same rules over fixture trees with their root as baseDir).

/** Matches an import of one of our workspace packages by name, resolved or not. */
const PKG = (name) => `(^|/node_modules/)@timeliner/${name}(/|$)`;
/** Any of our packages except the listed ones. */
const PKG_EXCEPT = (...names) => `(^|/node_modules/)@timeliner/(?!(${names.join('|')})(/|$))`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'service-imports-other-service',
      comment:
        "A service owns its tables and code; another service learns about them only through proto events " +
        'or request/reply messages. Share runtime code through @timeliner/platform instead.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/platform/' },
      to: {
        path: ['^services/', PKG_EXCEPT('platform', 'proto', 'gateway', 'frontend')],
        pathNot: ['^services/($1|platform)/', PKG('$1')],
      },
    },
    {
      name: 'service-imports-gateway',
      comment: 'Services sit behind the gateway; they never call into it.',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: ['^gateway/', PKG('gateway')] },
    },
    {
      name: 'gateway-imports-service',
      comment:
        'The gateway reaches services over HTTP and NATS only; its sole server-side dependency is ' +
        '@timeliner/platform (and the proto contracts).',
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: ['^services/(?!platform/)', PKG_EXCEPT('platform', 'proto', 'gateway')] },
    },
    {
      name: 'platform-imports-app',
      comment: 'The shared runtime must not depend on the apps that use it.',
      severity: 'error',
      from: { path: '^services/platform/' },
      to: { path: ['^services/(?!platform/)', '^gateway/', '^frontend/', PKG_EXCEPT('platform', 'proto')] },
    },
    {
      name: 'proto-imports-ours',
      comment: 'The contracts are the leaf of the graph: framework-free and importable by anyone.',
      severity: 'error',
      from: { path: '^proto/' },
      to: { path: ['^(services|gateway|frontend)/', PKG_EXCEPT('proto')] },
    },
    {
      name: 'server-imports-frontend',
      comment: 'The gateway serves the built web app from WEB_DIST; no server code imports it.',
      severity: 'error',
      from: { path: '^(services|gateway|proto)/' },
      to: { path: ['^frontend/', PKG('frontend')] },
    },
    {
      name: 'frontend-imports-server-code',
      comment:
        'The web app talks to the API only through the generated OpenAPI client; server code ' +
        '(platform, services, gateway) must never end up in the browser bundle.',
      severity: 'error',
      from: { path: '^frontend/' },
      to: { path: ['^(services|gateway)/', PKG_EXCEPT('proto', 'frontend')] },
    },
    {
      name: 'frontend-imports-proto-at-runtime',
      comment:
        'The frontend may use proto types (`import type`), which vanish at build time; a value import ' +
        'would pull the protobuf runtime into the initial bundle.',
      severity: 'error',
      from: { path: '^frontend/' },
      to: { path: [PKG('proto'), '^proto/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'frontend-imports-outside-frontend',
      comment: 'Relative imports must stay inside frontend/; shared code comes in as a package.',
      severity: 'error',
      from: { path: '^frontend/' },
      to: { dependencyTypes: ['local'], pathNot: '^frontend/' },
    },
    {
      name: 'frontend-feature-imports-other-feature',
      comment:
        'A feature of the web app never imports another feature (tests included): what two features share ' +
        'lives in frontend/src/lib or frontend/src/components, and pages in frontend/src/app put features ' +
        "together (a slot, a render prop, or an onSuccess that refreshes the other feature's data).",
      severity: 'error',
      from: { path: '^frontend/src/features/([^/]+)/' },
      to: { path: '^frontend/src/features/', pathNot: '^frontend/src/features/$1/' },
    },
    {
      name: 'frontend-imports-node-builtin',
      comment: 'Node built-ins (node:fs, path, crypto, ...) do not exist in the browser. (Tests run in Node.)',
      severity: 'error',
      from: { path: '^frontend/', pathNot: '\\.(test|spec)\\.tsx?$' },
      to: { dependencyTypes: ['core'] },
    },
  ],

  options: {
    // Type-only imports cross boundaries too (and carry another service's model with them).
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    doNotFollow: { path: 'node_modules' },
    // Build output of our own packages is not source. (Only by path: excluding every `dist/` would
    // also hide an import of `node_modules/@timeliner/<pkg>/dist/...`.)
    exclude: { path: ['^(proto|gateway|frontend|services/[^/]+)/dist/', '\\.d\\.ts$'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // `source` points a workspace package at its TypeScript (see the packages' `exports`).
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
