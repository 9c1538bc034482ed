import { describe, expect, it } from '@jest/globals';
import { checkInviteEmail } from './invite-validation';

describe('invite e-mail', () => {
  it('requires an address', () => {
    expect(checkInviteEmail('   ')).toEqual({ title: 'Email Required', description: 'Please enter an email address' });
  });

  it('needs a simple address shape', () => {
    for (const bad of ['ada', 'ada@', 'ada@example', 'a da@example.com', '@example.com']) {
      expect(checkInviteEmail(bad)).toEqual({ title: 'Invalid Email', description: 'Please enter a valid email address' });
    }
  });

  it('accepts a valid address, ignoring surrounding spaces', () => {
    expect(checkInviteEmail(' grace@example.com ')).toBeUndefined();
  });
});
