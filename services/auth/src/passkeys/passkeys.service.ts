import { BadRequestException, ConflictException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { isUuid, type SignedInCaller } from '@timeliner/platform';
import type { AccountMail } from '../account/account-mail.js';
import type { UserRepository } from '../users/user.repository.js';
import type { IdentityProof } from '../two-step/identity-proof.js';
import type { ProofDto } from '../two-step/two-step.dto.js';
import type { PasskeyRepository } from './passkey.repository.js';
import { type AssertionOptionsDto, mapPasskey, type PasskeyDto, type RegisterPasskeyDto, type RegistrationOptionsDto } from './passkeys.dto.js';
import type { WebAuthnCeremonies } from './webauthn.js';

const NOT_FOUND = 'Passkey not found';
/** More than anyone needs, few enough to list. */
export const MAX_PASSKEYS = 20;

/** A person's passkeys: adding (several), naming, removing (the password or a passkey first). */
export class PasskeysService {
  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly webauthn: WebAuthnCeremonies,
    private readonly proof: IdentityProof,
    private readonly mail?: AccountMail,
  ) {}

  async list(caller: SignedInCaller): Promise<PasskeyDto[]> {
    return (await this.passkeys.list(caller.userId)).map(mapPasskey);
  }

  async registrationOptions(caller: SignedInCaller, requestOrigin: string | undefined): Promise<RegistrationOptionsDto> {
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    if ((await this.passkeys.count(user.id)) >= MAX_PASSKEYS) throw new BadRequestException(`You can have at most ${MAX_PASSKEYS} passkeys`);
    return this.webauthn.registrationOptions(user, this.webauthn.relyingParty(requestOrigin));
  }

  async register(caller: SignedInCaller, dto: RegisterPasskeyDto, requestOrigin: string | undefined): Promise<PasskeyDto> {
    const credential = await this.webauthn.verifyRegistration(caller.userId, dto.challengeId, dto.response, this.webauthn.relyingParty(requestOrigin));
    const saved = await this.passkeys.insert({ ...credential, name: dto.name });
    if (!saved) throw new ConflictException('This passkey is already added');
    await this.tell(caller.userId, `A passkey named "${saved.name}" was added to your Timeliner account`);
    return mapPasskey(saved);
  }

  async rename(caller: SignedInCaller, id: string, name: string): Promise<PasskeyDto> {
    const renamed = isUuid(id) ? await this.passkeys.rename(caller.userId, id.toLowerCase(), name) : undefined;
    if (!renamed) throw new NotFoundException(NOT_FOUND);
    return mapPasskey(renamed);
  }

  /** Options for proving who one is with one of one's passkeys (before turning a factor off). */
  confirmOptions(caller: SignedInCaller, requestOrigin: string | undefined): Promise<AssertionOptionsDto> {
    return this.webauthn.assertionOptions(caller.userId, this.webauthn.relyingParty(requestOrigin));
  }

  async remove(caller: SignedInCaller, id: string, proof: ProofDto, requestOrigin: string | undefined): Promise<void> {
    if (!isUuid(id)) throw new NotFoundException(NOT_FOUND);
    const passkey = (await this.passkeys.list(caller.userId)).find((row) => row.id === id.toLowerCase());
    if (!passkey) throw new NotFoundException(NOT_FOUND);
    await this.proof.check(caller, proof, requestOrigin);
    if (!(await this.passkeys.remove(caller.userId, passkey.id))) throw new NotFoundException(NOT_FOUND);
    await this.tell(caller.userId, `The passkey named "${passkey.name}" was removed from your Timeliner account`);
  }

  /** The owner hears of it by e-mail, after the answer. */
  private async tell(userId: string, what: string): Promise<void> {
    const user = this.mail ? await this.users.findById(userId) : null;
    if (user) void this.mail!.signInMethodsChanged(user.email, user.displayName, what);
  }
}
