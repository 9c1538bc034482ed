import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');

/**
 * A software authenticator that answers WebAuthn ceremonies as a phone's would (ES256, a
 * discoverable credential, user verified, "none" attestation), so the server's real verification
 * runs on real signatures.
 */
class SoftwareAuthenticator {
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  readonly credentialId = randomBytes(16);
  private counter = 0;
  private userHandle: string | undefined;

  constructor(
    private readonly origin: string,
    private readonly rpID: string,
  ) {}

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))], [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))]]));
  }

  private authenticatorData(attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const parts = [sha256(this.rpID), Buffer.from([attested ? 0x45 : 0x05]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.cosePublicKey()));
    }
    return Buffer.concat(parts);
  }

  register(options: { challenge: string; user: { id: string } }, origin = this.origin) {
    this.userHandle = options.user.id;
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(this.authenticatorData(true))]]) as never);
    const id = b64url(this.credentialId);
    return { id, rawId: id, type: 'public-key', response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] }, clientExtensionResults: {}, authenticatorAttachment: 'platform' };
  }

  assert(options: { challenge: string }, origin = this.origin) {
    this.counter += 1;
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false });
    const authenticatorData = this.authenticatorData(false);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.keys.privateKey);
    const id = b64url(this.credentialId);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature), ...(this.userHandle ? { userHandle: this.userHandle } : {}) },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

/** Passkeys: registered and verified by the server, several per person, named, removed with proof, and signing in alone. */
describe('passkeys', () => {
  let h: AuthHarness;
  let ipCounter = 0;
  const ip = () => `198.18.0.${(ipCounter += 1)}`;
  // The harness's PUBLIC_ORIGIN: passkeys belong to app.test.
  const device = () => new SoftwareAuthenticator('http://app.test', 'app.test');

  beforeAll(async () => {
    h = await startHarness('passkeys');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async () => {
    const body = newUser();
    const res = await h.call('post', '/api/auth/register', { ip: ip() }).send(body).expect(201);
    const userId = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [userId]);
    return { body, userId, as: { userId, sessionId: session!.id, ip: ip() } };
  };
  type As = Awaited<ReturnType<typeof register>>['as'];
  /** Adds a passkey; answers the status and body. */
  const addPasskey = async (as: As, authenticator: SoftwareAuthenticator, name = 'My phone') => {
    const options = (await h.call('post', '/api/auth/passkeys/registration-options', as).expect(200)).body;
    const res = await h.call('post', '/api/auth/passkeys', as).send({ challengeId: options.challengeId, name, response: authenticator.register(options.options) });
    return { status: res.status, body: res.body };
  };
  const added201 = async (...args: Parameters<typeof addPasskey>) => {
    const res = await addPasskey(...args);
    expect(res.status).toBe(201);
    return res.body;
  };
  const signInOptions = async () => (await h.call('post', '/api/auth/passkeys/sign-in-options', { ip: ip() }).expect(200)).body as { challengeId: string; options: { challenge: string; rpId: string; allowCredentials?: unknown[]; userVerification: string } };

  it('adds several passkeys verified by the server, lists and renames them, and keeps only the public key', async () => {
    const { as, userId, body } = await register();
    const options = (await h.call('post', '/api/auth/passkeys/registration-options', as).expect(200)).body;
    expect(options.options.rp).toEqual({ name: 'Timeliner', id: 'app.test' });
    expect(options.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(Buffer.from(options.options.user.id, 'base64url').toString()).toBe(userId);

    const phone = device();
    const laptop = device();
    const first = await added201(as, phone, ' My phone ');
    expect(first).toMatchObject({ name: 'My phone', lastUsedAt: null });
    await added201(as, laptop, 'Laptop');
    expect((await h.waitForMail(body.email)).text).toContain('A passkey named "My phone" was added to your Timeliner account');
    // The same credential twice: refused.
    expect((await addPasskey(as, phone)).status).toBe(409);
    const listed = (await h.call('get', '/api/auth/passkeys', as).expect(200)).body as Array<{ id: string; name: string }>;
    expect(listed.map((passkey) => passkey.name)).toEqual(['My phone', 'Laptop']);
    const renamed = await h.call('patch', `/api/auth/passkeys/${listed[1]!.id}`, as).send({ name: 'Work laptop' }).expect(200);
    expect(renamed.body.name).toBe('Work laptop');
    await h.call('patch', `/api/auth/passkeys/${listed[1]!.id}`, as).send({ name: '' }).expect(400);
    await h.call('patch', `/api/auth/passkeys/${listed[1]!.id}`, as).send({ name: 'x'.repeat(61) }).expect(400);

    const [row] = await h.query<{ credential_id: string; public_key: Buffer; transports: string }>('SELECT credential_id, public_key, transports FROM passkeys WHERE name = $1 AND user_id = $2', ['My phone', userId]);
    expect(row!.credential_id).toBe(b64url(phone.credentialId));
    expect(row!.public_key.length).toBeGreaterThan(60);
    expect(row!.transports).toBe('internal');
  });

  it('refuses an answer for another origin, a forged one, a used challenge and an expired one', async () => {
    const { as } = await register();
    const phone = device();
    const options = (await h.call('post', '/api/auth/passkeys/registration-options', as).expect(200)).body;
    const wrongOrigin = await h.call('post', '/api/auth/passkeys', as).send({ challengeId: options.challengeId, name: 'Phish', response: phone.register(options.options, 'http://evil.test') }).expect(400);
    expect(wrongOrigin.body.message).toBe('That passkey could not be checked. Please try again.');
    // The challenge was taken by that try: it works once.
    const reused = await h.call('post', '/api/auth/passkeys', as).send({ challengeId: options.challengeId, name: 'Again', response: phone.register(options.options) }).expect(400);
    expect(reused.body.message).toBe('This passkey request has expired. Please try again.');
    // Expired.
    const late = (await h.call('post', '/api/auth/passkeys/registration-options', as).expect(200)).body;
    await h.query(`UPDATE webauthn_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [late.challengeId]);
    await h.call('post', '/api/auth/passkeys', as).send({ challengeId: late.challengeId, name: 'Late', response: phone.register(late.options) }).expect(400);
    // Another person's challenge.
    const other = await register();
    const theirs = (await h.call('post', '/api/auth/passkeys/registration-options', other.as).expect(200)).body;
    await h.call('post', '/api/auth/passkeys', as).send({ challengeId: theirs.challengeId, name: 'Theirs', response: phone.register(theirs.options) }).expect(400);
    await h.call('post', '/api/auth/passkeys', as).send({ challengeId: 'not-an-id', name: 'Bad', response: {} }).expect(400);
    expect((await h.call('get', '/api/auth/passkeys', as).expect(200)).body).toEqual([]);
  });

  it('signs in with a passkey alone (discoverable: no name typed), once per challenge, and counts its use', async () => {
    const { as, userId, body } = await register();
    const phone = device();
    await added201(as, phone);
    const before = (await h.query<{ count: number }>('SELECT count(*)::int AS count FROM sessions WHERE user_id = $1', [userId]))[0]!.count;

    const options = await signInOptions();
    expect(options.options.rpId).toBe('app.test');
    expect(options.options.allowCredentials ?? []).toEqual([]);
    expect(options.options.userVerification).toBe('required');
    const answer = phone.assert(options.options);
    const signedIn = await h.call('post', '/api/auth/passkeys/sign-in', { ip: ip() }).send({ challengeId: options.challengeId, response: answer }).expect(200);
    expect(signedIn.body.user).toMatchObject({ id: userId, username: body.username });
    expect(signedIn.body.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await h.query<{ count: number }>('SELECT count(*)::int AS count FROM sessions WHERE user_id = $1', [userId]))[0]!.count).toBe(before + 1);
    const [stored] = await h.query<{ counter: string; last_used_at: Date | null }>('SELECT counter, last_used_at FROM passkeys WHERE user_id = $1', [userId]);
    expect(stored).toMatchObject({ counter: '1' });
    expect(stored!.last_used_at).not.toBeNull();

    // The same answer again: the challenge is gone.
    await h.call('post', '/api/auth/passkeys/sign-in', { ip: ip() }).send({ challengeId: options.challengeId, response: answer }).expect(400);
    // A fresh challenge answered with a tampered signature: refused.
    const next = await signInOptions();
    const forged = phone.assert(next.options);
    forged.response.signature = b64url(randomBytes(70));
    await h.call('post', '/api/auth/passkeys/sign-in', { ip: ip() }).send({ challengeId: next.challengeId, response: forged }).expect(400);
    // A passkey the site does not know: refused.
    const stranger = device();
    const third = await signInOptions();
    await h.call('post', '/api/auth/passkeys/sign-in', { ip: ip() }).send({ challengeId: third.challengeId, response: stranger.assert(third.options) }).expect(400);
  });

  it('removes a passkey only with the password or a passkey, and only one\'s own', async () => {
    const { as, body } = await register();
    const phone = device();
    const laptop = device();
    const added = (await added201(as, phone)) as { id: string };
    const second = (await added201(as, laptop, 'Laptop')) as { id: string };
    const other = await register();

    await h.call('post', `/api/auth/passkeys/${added.id}/remove`, as).send({ proof: {} }).expect(400);
    expect((await h.call('post', `/api/auth/passkeys/${added.id}/remove`, as).send({ proof: { password: 'wrong one' } }).expect(400)).body.message).toBe('Your password is not right');
    // Someone else's passkey is not found, whatever they prove.
    await h.call('post', `/api/auth/passkeys/${added.id}/remove`, other.as).send({ proof: { password: other.body.password } }).expect(404);
    await h.call('patch', `/api/auth/passkeys/${added.id}`, other.as).send({ name: 'Mine now' }).expect(404);
    await h.call('post', '/api/auth/passkeys/not-a-uuid/remove', as).send({ proof: { password: body.password } }).expect(404);

    await h.call('post', `/api/auth/passkeys/${added.id}/remove`, as).send({ proof: { password: body.password } }).expect(204);
    // With a passkey as the proof (the laptop proves it is them; it may remove itself).
    const confirm = (await h.call('post', '/api/auth/passkeys/confirm-options', as).expect(200)).body;
    expect(confirm.options.allowCredentials).toEqual([expect.objectContaining({ id: b64url(laptop.credentialId) })]);
    // Another person's passkey cannot prove it is them.
    const theirs = device();
    await added201(other.as, theirs);
    await h.call('post', `/api/auth/passkeys/${second.id}/remove`, as).send({ proof: { passkey: { challengeId: confirm.challengeId, response: theirs.assert(confirm.options) } } }).expect(400);
    const again = (await h.call('post', '/api/auth/passkeys/confirm-options', as).expect(200)).body;
    await h.call('post', `/api/auth/passkeys/${second.id}/remove`, as).send({ proof: { passkey: { challengeId: again.challengeId, response: laptop.assert(again.options) } } }).expect(204);
    expect((await h.call('get', '/api/auth/passkeys', as).expect(200)).body).toEqual([]);
    // The removed passkey no longer signs in.
    const options = await signInOptions();
    await h.call('post', '/api/auth/passkeys/sign-in', { ip: ip() }).send({ challengeId: options.challengeId, response: laptop.assert(options.options) }).expect(400);
  });

  it('turns two-step sign-in off with a passkey instead of the password', async () => {
    const { as } = await register();
    const phone = device();
    await added201(as, phone);
    const setup = (await h.call('post', '/api/auth/two-step/totp/setup', as).expect(200)).body;
    const { TOTP, Secret } = await import('otpauth');
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    await h.call('post', '/api/auth/two-step/totp/confirm', as).send({ code }).expect(200);
    const confirm = (await h.call('post', '/api/auth/passkeys/confirm-options', as).expect(200)).body;
    await h.call('post', '/api/auth/two-step/totp/disable', as).send({ passkey: { challengeId: confirm.challengeId, response: phone.assert(confirm.options) } }).expect(204);
    expect((await h.call('get', '/api/auth/two-step', as).expect(200)).body.enabled).toBe(false);
  });
});
