// Test support: a node:http server on 127.0.0.1, port 0, for the transport's tests and the CLI tests
// that put a server of their own in front of the harness.
import http from 'node:http';
import net from 'node:net';
import type { RetryPolicy } from '#harness/spec/model.ts';

/** The description's retry guidance, as spec/errors.yaml `errors.retry` holds it (a test checks they agree). */
export const SPEC_RETRY_POLICY: RetryPolicy = {
  statuses: [429, 503],
  advised_statuses: [500],
  read_retry_after_first: true,
  backoff: 'exponential',
  initial_delay_seconds: 1,
  multiplier: 2,
  max_delay_seconds: 60,
  jitter_seconds: { min: 0, max: 1 },
  max_attempts: 5,
  min_delay_after_503_seconds: 30,
  strength: 'should',
  basis: 'advised',
  source: 'Errors > Rules',
};

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (it was free a moment ago). */
export async function deadPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
