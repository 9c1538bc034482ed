import { describe, expect, it } from '@jest/globals';
import { GatewayConfig } from '../../gateway/src/gateway.config.js';
import { EXPORT_WAIT_MS } from '../../services/media/src/exports/exports.service.js';

/**
 * POST /api/timelines/{id}/export waits for the worker, then answers 202 with the export's id
 * (the player then asks GET /api/exports/{id} and shows its progress). That wait must end well
 * before the gateway gives up on the request: otherwise an export still being made reaches the
 * person as 504 'The service did not answer in time', and the player says the export failed.
 */
describe('the export request and the gateway', () => {
  it('answers (202 at the latest) before the gateway times the request out', () => {
    const gatewayTimeoutMs = new GatewayConfig().UPSTREAM_TIMEOUT_SECONDS * 1000;
    expect(EXPORT_WAIT_MS).toBeLessThanOrEqual(gatewayTimeoutMs / 2);
  });
});
