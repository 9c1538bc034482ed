#!/usr/bin/env node
// Prints the SQL that would bring a service's schema in line with its entities, starting from its
// migrations applied to a scratch database. Empty output: entities and migrations agree. Use it to
// write the next migration:  npx tsc -b && node scripts/schema-diff.mjs auth
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const service = process.argv[2];
if (!service) {
  console.error('usage: node scripts/schema-diff.mjs <service>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..');
const platform = await import(pathToFileURL(path.join(root, 'services/platform/dist/index.js')).href);
const testing = await import(pathToFileURL(path.join(root, 'services/platform/dist/testing/index.js')).href);
const mod = await import(pathToFileURL(path.join(root, `services/${service}/dist/schema.js`)).href);
const db = await testing.createTestDatabase(`diff${service}`);
try {
  const ds = await platform.openDatabase({ url: db.url, schema: mod.schema.name, entities: mod.schema.entities, migrations: mod.schema.migrations });
  const pending = await platform.pendingSchemaChanges(ds);
  for (const q of pending) console.log(`${q};`);
  await ds.destroy();
} finally {
  await db.drop();
}
