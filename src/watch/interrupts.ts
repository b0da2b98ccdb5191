// Turns SIGINT, SIGTERM and SIGHUP into AbortSignals for launch() and watch(): the first aborts the start,
// a second SIGINT also ends the grace period of the stop that follows.

// The abort signals a command passes to launch() or watch(), and the way to release them.
export interface Interrupts {
  /** Aborts on the first SIGINT, SIGTERM or SIGHUP. */
  signal: AbortSignal;
  /** Aborts on a second SIGINT (or any signal after the first): stop without waiting out the grace period. */
  skipGrace: AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | null;
  /** Removes the handlers; the process's default handling comes back. */
  dispose(): void;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

// Installs the handlers on this process; call dispose() when the start has ended.
export const listenForInterrupts = (): Interrupts => {
  const first = new AbortController();
  const second = new AbortController();
  let received: NodeJS.Signals | null = null;
  const onSignal = (name: NodeJS.Signals): void => {
    if (received === null) {
      received = name;
      first.abort(new Error(`interrupted by ${name}`));
      return;
    }
    second.abort(new Error(`interrupted again by ${name}`));
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  return {
    signal: first.signal,
    skipGrace: second.signal,
    get received() {
      return received;
    },
    dispose() {
      for (const name of SIGNALS) process.off(name, onSignal);
    },
  };
};
