/**
 * Subject helpers shared by the adapters. Logical subjects are dot-separated tokens; patterns may
 * use NATS wildcards: `*` for one token, `>` for one or more trailing tokens.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let i = 0; i < wanted.length; i++) {
    const token = wanted[i];
    if (token === '>') return tokens.length > i;
    if (i >= tokens.length) return false;
    if (token !== '*' && token !== tokens[i]) return false;
  }
  return wanted.length === tokens.length;
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

export function assertSubject(subject: string, allowWildcards: boolean): void {
  const tokens = subject.split('.');
  const ok = tokens.every(
    (token, i) => TOKEN.test(token) || (allowWildcards && (token === '*' || (token === '>' && i === tokens.length - 1))),
  );
  if (!ok) throw new Error(`Invalid bus subject "${subject}"`);
}

/** A name usable as a JetStream consumer/durable name and in logs. */
export function assertName(kind: string, name: string): void {
  if (!TOKEN.test(name)) throw new Error(`${kind} "${name}" may only hold letters, digits, "_" and "-"`);
}
