import type { LoginInput } from '../api/login';
import type { RegisterInput } from '../api/register';

/** The field rules and messages of spec 001, section 5. */
export const authMessages = {
  login: 'Please enter your email or username',
  password: 'Password must be at least 6 characters',
  username: 'Username must be at least 3 characters',
  email: 'Please enter a valid email address',
  displayName: 'Full name must be at least 2 characters',
} as const;

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

export function validateLogin(values: LoginInput): FieldErrors<LoginInput> {
  const errors: FieldErrors<LoginInput> = {};
  if (values.login.length < 1) errors.login = authMessages.login;
  if (values.password.length < 6) errors.password = authMessages.password;
  return errors;
}

export function validateRegistration(values: RegisterInput): FieldErrors<RegisterInput> {
  const errors: FieldErrors<RegisterInput> = {};
  if (values.displayName.length < 2) errors.displayName = authMessages.displayName;
  if (values.username.length < 3) errors.username = authMessages.username;
  if (!isValidEmail(values.email)) errors.email = authMessages.email;
  if (values.password.length < 6) errors.password = authMessages.password;
  return errors;
}

export function hasErrors<T>(errors: FieldErrors<T>): boolean {
  return Object.keys(errors).length > 0;
}
