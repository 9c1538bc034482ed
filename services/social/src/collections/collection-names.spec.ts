import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { CreateCollectionDto, UpdateCollectionDto } from './collection.dto.js';

describe('collection names as stored', () => {
  it('lose control and bidirectional formatting characters', () => {
    expect(plainToInstance(CreateCollectionDto, { name: ' \u202Egnp.spirt ' }).name).toBe('gnp.spirt');
    expect(plainToInstance(UpdateCollectionDto, { name: 'Road\u2067 trips\u001b' }).name).toBe('Road trips');
  });
});
