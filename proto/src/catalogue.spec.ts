import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from '@jest/globals';
import { AuthEvents, AuthRpc } from './catalogue.js';
import { defineEvent, defineRpc } from './define.js';
import { UserUpdatedSchema } from './gen/timeliner/auth/v1/events_pb.js';

describe('subject catalogue', () => {
  it('puts the version in every subject', () => {
    expect(AuthEvents.UserRegistered.subject).toBe('auth.user.registered.v1');
    expect(AuthEvents.UserUpdated.subject).toBe('auth.user.updated.v1');
    expect(AuthEvents.SessionRevoked.subject).toBe('auth.session.revoked.v1');
    expect(AuthRpc.VerifySession.subject).toBe('rpc.auth.session.verify.v1');
  });

  it('has no two definitions on one subject', () => {
    const subjects = [...Object.values(AuthEvents), ...Object.values(AuthRpc)].map((d) => d.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  it('rejects names that would make bad subjects', () => {
    expect(() => defineEvent('auth.user', 1, UserUpdatedSchema)).toThrow(/<service>.<entity>.<action>/);
    expect(() => defineEvent('auth.user.*', 1, UserUpdatedSchema)).toThrow();
    expect(() => defineEvent('Auth.User.Updated', 1, UserUpdatedSchema)).toThrow();
    expect(() => defineEvent('auth.user.updated', 0, UserUpdatedSchema)).toThrow(/version/);
    expect(() => defineRpc('auth.session.verify', 1.5, UserUpdatedSchema, UserUpdatedSchema)).toThrow(/version/);
  });

  it('keeps the presence of changed profile fields through the wire', () => {
    const schema = AuthEvents.UserUpdated.schema;
    const decoded = fromBinary(schema, toBinary(schema, create(schema, { userId: 'u1', bio: '' })));
    expect(decoded.bio).toBe('');
    expect(decoded.displayName).toBeUndefined();
  });
});
