/** The logger contract of the engine and its runtime, with the two loggers a library user may want. */

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export const consoleLogger: Logger = {
  debug: () => {},
  info: (m) => console.error(`[info] ${m}`),
  warn: (m) => console.error(`[warn] ${m}`),
  error: (m) => console.error(`[error] ${m}`),
};
