/** The parts of an OpenAPI 3 document the gateway reads and merges; the rest passes through. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: Array<{ name: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as Record<string, unknown>;
  return typeof doc.openapi === 'string' && /^3\./.test(doc.openapi) && typeof doc.info === 'object' && doc.info !== null;
}
