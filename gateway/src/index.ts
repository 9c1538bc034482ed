export { createGateway, type GatewayOptions } from './gateway.js';
export { internalUrlOf } from './http/internal-port.js';
export { GatewayConfig } from './gateway.config.js';
export { MemoryRateCounter, type RateCounter, RedisRateCounter } from './http/rate-counter.js';
export { mergeOpenApi, OpenApiMergeError, routedOnly, sortKeys } from './openapi/merge-openapi.js';
export type { OpenApiDocument } from './openapi/openapi-document.js';
export { ROUTES, RouteTable, type RouteEntry, type RouteMatch } from './routes/route-table.js';
export type { TimelineAccessCheck } from './realtime/topic-authorizer.js';
