import { afterEach } from 'vitest';

/** What a test opens and must close: a server, a transport. */
export interface Closable {
  close(): Promise<unknown>;
}

/**
 * Closes what the test file's variables hold after each test, in the order given (a transport
 * before the server its sockets reach), each once: a variable a test did not assign again still
 * holds what was closed after the last one. Call it at the top level of a test file.
 */
export function closeAfterEach(opened: () => readonly (Closable | undefined)[]): void {
  const closed = new WeakSet<Closable>();
  afterEach(async () => {
    for (const c of opened()) {
      if (c === undefined || closed.has(c)) continue;
      closed.add(c);
      await c.close();
    }
  });
}
