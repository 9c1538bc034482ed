/**
 * The logging the bus needs, shaped like pino's methods (`log.warn({ subject }, 'msg')`), so a
 * service passes its pino logger and tests pass nothing.
 */
export type BusLogFn = (objOrMessage: object | string, message?: string) => void;

export interface BusLogger {
  debug: BusLogFn;
  info: BusLogFn;
  warn: BusLogFn;
  error: BusLogFn;
}

const silent: BusLogFn = () => undefined;

function toConsole(write: (...args: unknown[]) => void): BusLogFn {
  return (objOrMessage, message) =>
    typeof objOrMessage === 'string' ? write(objOrMessage) : write(message ?? '', objOrMessage);
}

/** Without a logger, problems still reach stderr; routine chatter does not. */
export const defaultBusLogger: BusLogger = {
  debug: silent,
  info: silent,
  warn: toConsole(console.warn),
  error: toConsole(console.error),
};
