import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the gateway adds to the shared HTTP metrics: upstream latency, session checks, sockets. */
export class GatewayMetrics {
  /** Time from forwarding a request to the upstream's response headers, by table route. */
  readonly upstreamDuration: Histogram<'service' | 'route' | 'method' | 'status'>;
  readonly upstreamFailures: Counter<'service' | 'route' | 'reason'>;
  readonly sessionChecks: Counter<'result'>;
  readonly sockets: Gauge;
  readonly realtimeDelivered: Counter;
  readonly rateLimitFallbacks: Counter;

  constructor(registry: Registry) {
    this.upstreamDuration = new Histogram({
      name: 'gateway_upstream_duration_seconds',
      help: 'Time to the upstream response headers, by route table entry and upstream status',
      labelNames: ['service', 'route', 'method', 'status'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
      registers: [registry],
    });
    this.upstreamFailures = new Counter({
      name: 'gateway_upstream_failures_total',
      help: 'Requests the gateway answered itself because the upstream was unreachable or too slow',
      labelNames: ['service', 'route', 'reason'] as const,
      registers: [registry],
    });
    this.sessionChecks = new Counter({
      name: 'gateway_session_checks_total',
      help: 'Bearer token resolutions by outcome (cached, verified, rejected, unavailable)',
      labelNames: ['result'] as const,
      registers: [registry],
    });
    this.sockets = new Gauge({ name: 'gateway_websockets_open', help: 'Open /ws connections', registers: [registry] });
    this.realtimeDelivered = new Counter({
      name: 'gateway_realtime_messages_delivered_total',
      help: 'Realtime messages written to sockets',
      registers: [registry],
    });
    this.rateLimitFallbacks = new Counter({
      name: 'gateway_rate_limit_local_hits_total',
      help: 'Requests counted against a rate limit in this replica because Redis did not answer (limits not shared meanwhile)',
      registers: [registry],
    });
  }
}
