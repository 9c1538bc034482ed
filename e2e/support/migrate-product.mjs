// Migrates every service's schema into the database at DATABASE_URL with the built code, as the
// product started by `npm start` (deploy/single-process.mjs) does at its start. The browser
// journeys' template database (product.ts) is made with it once per test run.
import 'reflect-metadata';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);
const { openDatabase } = await load('services/platform/dist/index.js');
for (const service of ['auth', 'timelines', 'social', 'search', 'notifications', 'media']) {
  const { schema } = await load(`services/${service}/dist/schema.js`);
  const dataSource = await openDatabase({ url: process.env.DATABASE_URL, schema: schema.name, entities: schema.entities, migrations: schema.migrations, poolSize: 2 });
  await dataSource.destroy();
}
