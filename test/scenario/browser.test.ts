/** browser_action through the real CLI and a real Chromium: the screenshot reaches the model. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { findBrowser } from "../../src/coding/browser/find-browser.js";
import { closeScenarios, complete, startScenario } from "./scenario.js";

let page: Server | undefined;
afterEach(async () => {
  await closeScenarios();
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
});

describe("browser_action", () => {
  it("launches a page, returns a screenshot and the console log to the model, and closes", async () => {
    expect(findBrowser(), "Chromium must be installed (apt-get install chromium)").toBeDefined();
    page = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body><h1>Hello</h1><script>console.log('page ready')</script></body></html>");
    });
    await new Promise<void>((resolve) => page!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const s = await startScenario("anthropic", [
      { toolCalls: [{ name: "browser_action", input: { action: "launch", url } }] },
      { toolCalls: [{ name: "browser_action", input: { action: "close" } }] },
      complete("Saw the page."),
    ]);
    const run = await s.run("Look at the page.", ["--yes"], { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const result = s.server.requests[1]!.body.messages.at(-1).content[0];
    expect(result.type).toBe("tool_result");
    const image = result.content.find((block: any) => block.type === "image");
    expect(image.source.media_type).toMatch(/image\/(png|jpeg)/);
    expect(Buffer.from(image.source.data, "base64").length).toBeGreaterThan(1000);
    expect(JSON.stringify(result.content)).toContain("page ready");
  }, 60_000);
});
