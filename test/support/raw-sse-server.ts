/**
 * A server that answers every POST with the given SSE text, byte for byte. For wire-level
 * quirks the scripted fake model server does not produce (other servers' dialects, broken
 * streams).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RawSseServer {
  readonly url: string;
  close(): Promise<void>;
}

export function startRawSseServer(frames: string[]): Promise<RawSseServer> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const frame of frames) res.write(frame);
      res.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
