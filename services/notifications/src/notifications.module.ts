import { type DynamicModule, Module } from '@nestjs/common';
import { Transactions } from '@timeliner/platform';
import { DataSource } from 'typeorm';
import { NotificationController } from './notifications/notification.controller.js';
import { NotificationRepository } from './notifications/notification.repository.js';
import { NotificationService } from './notifications/notification.service.js';
import type { NotificationOutlet } from './notifications/notifier.js';
import { PreferenceController } from './preferences/preference.controller.js';
import { PreferenceService } from './preferences/preference.service.js';
import { PreferenceRepository } from './preferences/preference.repository.js';
import { PushController } from './push/push.controller.js';
import { PushService, type PushSubscriptionRules } from './push/push.service.js';
import { PushSubscriptionRepository } from './push/push-subscription.repository.js';

export interface NotificationsModuleDeps {
  dataSource: DataSource;
  outlet: NotificationOutlet;
  vapidPublicKey: string;
  pushSubscriptions: PushSubscriptionRules;
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
        { provide: Transactions, useFactory: (ds: DataSource) => new Transactions(ds), inject: [DataSource] },
        { provide: NotificationRepository, useFactory: (ds: DataSource) => new NotificationRepository(ds), inject: [DataSource] },
        { provide: PreferenceRepository, useFactory: (ds: DataSource) => new PreferenceRepository(ds), inject: [DataSource] },
        { provide: PushSubscriptionRepository, useFactory: (ds: DataSource) => new PushSubscriptionRepository(ds), inject: [DataSource] },
        {
          provide: NotificationService,
          useFactory: (transactions: Transactions, notifications: NotificationRepository, outlet: NotificationOutlet) => new NotificationService(transactions, notifications, outlet),
          inject: [Transactions, NotificationRepository, OUTLET],
        },
        { provide: PreferenceService, useFactory: (preferences: PreferenceRepository) => new PreferenceService(preferences), inject: [PreferenceRepository] },
        {
          provide: PushService,
          useFactory: (subscriptions: PushSubscriptionRepository) => new PushService(subscriptions, deps.vapidPublicKey, deps.pushSubscriptions),
          inject: [PushSubscriptionRepository],
        },
      ],
    };
  }
}
