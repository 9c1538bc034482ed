import argon2 from 'argon2';

/**
 * argon2id at OWASP's first recommended setting (m = 19 MiB, t = 2, p = 1). Parameters live in
 * the PHC string, so raising them later only affects new hashes; `needsRehash` tells when an old
 * hash should be upgraded at the next sign-in.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  /** A hash of a random password, verified against when an account does not exist, so both cases take the same time. */
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same work as a real verification and always fails. */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash(`decoy-${Math.random()}-${Date.now()}`);
    await this.verify(await this.decoy, password);
    return false;
  }

  needsRehash(hash: string): boolean {
    return argon2.needsRehash(hash, ARGON2_OPTIONS);
  }
}
