import type { EventBus, HealthCheck } from '@timeliner/platform';

/**
 * Readiness of the gateway: the bus answers (no session checks, no realtime without it) and
 * every upstream reports itself ready.
 */
export function gatewayHealthChecks(bus: EventBus, upstreams: Record<string, string>): Record<string, HealthCheck> {
  const checks: Record<string, HealthCheck> = { bus: () => bus.isHealthy() };
  for (const [service, url] of Object.entries(upstreams)) {
    checks[`${service}-service`] = async () => {
      const response = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(1_500) });
      await response.body?.cancel();
      return response.ok;
    };
  }
  return checks;
}
