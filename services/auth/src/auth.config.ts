import { BaseConfig } from '@timeliner/platform';

export class AuthConfig extends BaseConfig {}
