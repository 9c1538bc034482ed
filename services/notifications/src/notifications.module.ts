import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationController } from './notifications/notification.controller.js';
import { NotificationRepository } from './notifications/notification.repository.js';
import { NotificationService } from './notifications/notification.service.js';
import type { NotificationOutlet } from './notifications/notifier.js';
import { PreferenceController } from './preferences/preference.controller.js';
import { PreferenceService } from './preferences/preference.service.js';
import { PreferenceRepository } from './preferences/preference.repository.js';
import { PushController } from './push/push.controller.js';
import { type PushEndpointPolicy, PushService } from './push/push.service.js';

export interface NotificationsModuleDeps {
  dataSource: DataSource;
  outlet: NotificationOutlet;
  vapidPublicKey: string;
  endpoints: PushEndpointPolicy;
}

const OUTLET = Symbol('NotificationOutlet');

@Module({})
export class NotificationsModule {
  static forRoot(deps: NotificationsModuleDeps): DynamicModule {
    return {
      module: NotificationsModule,
      controllers: [PreferenceController, PushController, NotificationController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: OUTLET, useValue: deps.outlet },
        { provide: NotificationRepository, useValue: new NotificationRepository() },
        {
          provide: NotificationService,
          useFactory: (ds: DataSource, notifications: NotificationRepository, outlet: NotificationOutlet) => new NotificationService(ds, notifications, outlet),
          inject: [DataSource, NotificationRepository, OUTLET],
        },
        { provide: PreferenceService, useFactory: (ds: DataSource) => new PreferenceService(ds, new PreferenceRepository()), inject: [DataSource] },
        { provide: PushService, useFactory: (ds: DataSource) => new PushService(ds, deps.vapidPublicKey, deps.endpoints), inject: [DataSource] },
      ],
    };
  }
}
