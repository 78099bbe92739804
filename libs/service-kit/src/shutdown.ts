/** Close every resource once on SIGINT/SIGTERM; a second signal forces exit. */
export function onShutdown(close: () => Promise<void>, log: (msg: string) => void = console.error): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    log(`${signal}: shutting down`);
    close().then(
      () => {
        log('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second Ctrl-C must reach this handler (log, exit 1), not Node's default.
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
