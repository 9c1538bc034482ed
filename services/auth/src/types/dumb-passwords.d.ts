declare module 'dumb-passwords' {
  /** True when the password (compared in lower case) is one of the 10,000 most common. */
  export function check(password: string): boolean;
  const dumbPasswords: { check(password: string): boolean; checkPassword(password: string): boolean };
  export default dumbPasswords;
}
