import dumbPasswords from 'dumb-passwords';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength, registerDecorator, type ValidationOptions } from 'class-validator';

/** What a person is told when the password they chose is one attackers try first. */
export const COMMON_PASSWORD_MESSAGE = 'This password is one of the most common and easy to guess. Please choose another one.';

/**
 * Whether a password is among the 10,000 most common (the `dumb-passwords` list, compared in
 * lower case), which attackers try before anything else. Checked only when a password is chosen
 * (sign-up, change, reset), never at sign-in, so nobody is shut out of an account they already have.
 */
export const isCommonPassword = (password: string): boolean => dumbPasswords.check(password);

/** class-validator rule for a newly chosen password. */
export function NotCommonPassword(options: ValidationOptions = {}) {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'notCommonPassword',
      target: target.constructor,
      propertyName,
      options: { message: COMMON_PASSWORD_MESSAGE, ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || !isCommonPassword(value) },
    });
  };
}

/**
 * Every rule for a password someone chooses (sign-up, reset, change), with its description in the
 * API document: written as the field's decorators in this order, applied as TypeScript would.
 */
export function NewPassword(): PropertyDecorator {
  const rules: PropertyDecorator[] = [
    ApiProperty({ minLength: 6, maxLength: 256, description: 'Not one of the 10,000 most common passwords' }),
    IsString({ message: 'Password must be at least 6 characters' }),
    MinLength(6, { message: 'Password must be at least 6 characters' }),
    MaxLength(256, { message: 'Password must be at most 256 characters' }),
    NotCommonPassword() as PropertyDecorator,
  ];
  return (target, property) => {
    for (const rule of [...rules].reverse()) rule(target, property);
  };
}
