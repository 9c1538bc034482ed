// Container health probe: exits 0 when the app answers 2xx on the given path (default
// /health/ready, so compose's `depends_on: service_healthy` means "ready for traffic"), asked on
// $INTERNAL_PORT where the app has one (the gateway: probes never on its public port), else $PORT.
// Written in Node because the slim image has no curl or wget.
const path = process.argv[2] ?? '/health/ready';
const port = process.env.INTERNAL_PORT || process.env.PORT || '3000';

try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
