import { ServiceUnavailableException } from '@nestjs/common';
import type { Logger } from '@timeliner/platform';
import type { RouteTable } from '../routes/route-table.js';
import { mergeOpenApi, routedOnly } from './merge-openapi.js';
import { isOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

const FETCH_TIMEOUT_MS = 3_000;

/**
 * The public API description: each routed service's own `GET /openapi.json` (generated from its
 * code), reduced to the routes the gateway forwards to it, merged. Kept for a few minutes, so a
 * rolling deploy shows up without restarting the gateway; when a service cannot be reached the
 * last good document is served rather than a partial one.
 */
export class OpenApiAggregator {
  private cached: { json: string; builtAt: number } | undefined;
  private building: Promise<string> | undefined;

  constructor(
    private readonly upstreams: Record<string, string>,
    private readonly routes: RouteTable,
    private readonly logger: Logger,
    private readonly maxAgeMs = 5 * 60_000,
  ) {}

  /** The merged document, serialised. */
  async json(): Promise<string> {
    if (this.cached && Date.now() - this.cached.builtAt < this.maxAgeMs) return this.cached.json;
    this.building ??= this.build().finally(() => (this.building = undefined));
    try {
      return await this.building;
    } catch (error) {
      this.logger.warn({ err: error }, 'API description could not be rebuilt');
      if (this.cached) return this.cached.json;
      throw new ServiceUnavailableException(`API description unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async build(): Promise<string> {
    const services = this.routes.services();
    const documents = await Promise.all(services.map((service) => this.fetchDocument(service)));
    const routed: Record<string, OpenApiDocument> = {};
    services.forEach((service, i) => {
      const { document, dropped } = routedOnly(service, documents[i]!, this.routes);
      if (dropped.length > 0) this.logger.warn({ service, paths: dropped }, 'documented paths the gateway does not route to this service');
      routed[service] = document;
    });
    const json = JSON.stringify(mergeOpenApi(routed));
    this.cached = { json, builtAt: Date.now() };
    return json;
  }

  private async fetchDocument(service: string): Promise<OpenApiDocument> {
    const url = `${this.upstreams[service]}/openapi.json`;
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch((error: unknown) => {
      throw new Error(`${service} did not answer`, { cause: error });
    });
    if (!response.ok) throw new Error(`${service} answered ${response.status} for its OpenAPI document`);
    const document: unknown = await response.json();
    if (!isOpenApiDocument(document)) throw new Error(`${service} served something that is not an OpenAPI 3 document`);
    return document;
  }
}
