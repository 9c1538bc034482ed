import type { BusLogger } from '../../src/bus/bus-logger.js';

export interface LogEntry {
  level: keyof BusLogger;
  message: string;
  context: object;
}

/** A logger that keeps what it is told, so tests can assert that a give-up was logged. */
export function recordingLogger(): BusLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: keyof BusLogger) =>
    (objOrMessage: object | string, message?: string): void =>
      void entries.push(
        typeof objOrMessage === 'string'
          ? { level, message: objOrMessage, context: {} }
          : { level, message: message ?? '', context: objOrMessage },
      );
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
