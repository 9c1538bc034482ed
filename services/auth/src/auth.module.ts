import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { EventWriter } from '@timeliner/platform';
import { ProfileController } from './profiles/profile.controller.js';
import { PasswordHasher } from './security/password-hasher.js';
import { RateLimiter } from './security/rate-limiter.js';

export interface AuthModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
}

@Module({})
export class AuthModule {
  static forRoot(deps: AuthModuleDeps): DynamicModule {
    return {
      module: AuthModule,
      controllers: [AuthController, ProfileController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: PasswordHasher, useValue: new PasswordHasher() },
        { provide: RateLimiter, useFactory: (ds: DataSource) => new RateLimiter(ds), inject: [DataSource] },
        {
          provide: AuthService,
          useFactory: (ds: DataSource, hasher: PasswordHasher, limiter: RateLimiter, events: EventWriter) => new AuthService(ds, hasher, limiter, events),
          inject: [DataSource, PasswordHasher, RateLimiter, EventWriter],
        },
      ],
    };
  }
}
