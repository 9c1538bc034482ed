import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { HEALTH_CHECKS, type HealthCheck, HealthController } from './health.js';
import { METRICS_REGISTRY, MetricsController } from './metrics.js';

export const LOGGER = Symbol('LOGGER');

export interface PlatformModuleOptions {
  logger: Logger;
  registry: Registry;
  healthChecks: Record<string, HealthCheck>;
}

/** Health, metrics and the logger, available to every module of a service. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: LOGGER, useValue: options.logger },
        { provide: METRICS_REGISTRY, useValue: options.registry },
        { provide: HEALTH_CHECKS, useValue: options.healthChecks },
      ],
      exports: [LOGGER, METRICS_REGISTRY],
    };
  }
}
