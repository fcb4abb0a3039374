/** Sleeps `ms`, or less: the wait ends (resolving) as soon as `signal` aborts. */
export function sleepUnless(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) return done();
    const end = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', end);
      done();
    };
    const timer = setTimeout(end, ms);
    signal?.addEventListener('abort', end, { once: true });
  });
}
