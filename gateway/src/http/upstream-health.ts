import type { Server } from 'node:http';
import type { EventBus, HealthCheck } from '@timeliner/platform';

/**
 * Readiness of the gateway: what it needs itself to serve, the bus (no session checks, no
 * realtime without it). Never its upstreams: with one service down, the gateway still serves the
 * web app and every other service, and answers that service's routes 503 itself; were it to turn
 * unready, every replica would leave the load balancer at once and take the whole site down.
 * Nor is it ready before its public port listens: the probes' internal port opens first.
 */
export function gatewayHealthChecks(bus: EventBus, publicServer: () => Server | undefined): Record<string, HealthCheck> {
  return {
    bus: () => bus.isHealthy(),
    listening: async () => publicServer()?.listening ?? false,
  };
}
