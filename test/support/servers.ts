import { afterEach } from "vitest";
import {
  type FakeModelServer,
  type FakeModelServerOptions,
  startFakeModelServer,
} from "./fake-model-server.js";

/** A `startFakeModelServer` whose servers are closed after each test of the file. */
export function fakeServersClosedAfterEach(): (options: FakeModelServerOptions) => Promise<FakeModelServer> {
  const servers: FakeModelServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (options) => {
    const server = await startFakeModelServer(options);
    servers.push(server);
    return server;
  };
}
