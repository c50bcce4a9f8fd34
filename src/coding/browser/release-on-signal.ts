const SIGNALS = ["SIGTERM", "SIGHUP"] as const;

/**
 * Runs `release` (closing a browser) when the process gets SIGTERM or SIGHUP, then lets the
 * signal do what it would have done: when no other listener remains, it is raised again so the
 * process still ends. (SIGINT is left to the host, which aborts the task and disposes the
 * browser.) Returns the function that removes the listeners. Contract: `release` must not throw.
 */
export function releaseOnSignal(release: () => Promise<void>): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    void release().then(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  const remove = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return remove;
}
