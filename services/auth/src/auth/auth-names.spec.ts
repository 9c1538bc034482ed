import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { RegisterDto, UpdateProfileDto } from './auth.dto.js';

describe('display names as stored', () => {
  it('lose control and bidirectional formatting characters, at registration and on a profile edit', () => {
    expect(plainToInstance(RegisterDto, { displayName: ' \u202EnimdA\u202C ' }).displayName).toBe('nimdA');
    expect(plainToInstance(UpdateProfileDto, { displayName: 'Ada\u2066 Lovelace\u0007' }).displayName).toBe('Ada Lovelace');
  });
});
