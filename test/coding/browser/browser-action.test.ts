import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolResult } from "../../../src/agent/tool.js";
import { createBrowserSession } from "../../../src/coding/browser/browser-session.js";
import { findBrowser } from "../../../src/coding/browser/find-browser.js";
import {
  type BrowserActionDetails,
  type BrowserActionTool,
  createBrowserActionTool,
} from "../../../src/coding/tools/browser-action.js";
import type { ImageBlock, TextBlock } from "../../../src/llm/types.js";
import { createTestToolContext } from "../tool-context.js";
import { BUTTON, INPUT, startHangingServer, startPageServer, type TestServer } from "./test-pages.js";

const NAVIGATION_TIMEOUT_MS = 2000;

let executablePath: string;
let pages: TestServer;
let hanging: TestServer;
let tempDir: string;
let tool: BrowserActionTool;

beforeAll(async () => {
  const found = findBrowser();
  if (!found) {
    throw new Error(
      "Chromium was not found (BOWLINE_CHROMIUM, /usr/bin/chromium, ...). These tests need a real browser: apt-get install chromium.",
    );
  }
  executablePath = found;
  pages = await startPageServer();
  hanging = await startHangingServer();
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-browser-test-"));
  tool = createBrowserActionTool({ session: newSession() });
});

afterAll(async () => {
  await tool?.dispose();
  await pages?.close();
  await hanging?.close();
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

function newSession() {
  return createBrowserSession({ executablePath, navigationTimeoutMs: NAVIGATION_TIMEOUT_MS, tempDir });
}

async function call(input: Parameters<BrowserActionTool["execute"]>[0], target = tool) {
  return target.execute(input, createTestToolContext().ctx);
}

function textOf(result: ToolResult<BrowserActionDetails>): string {
  if (typeof result.content === "string") return result.content;
  return result.content
    .filter((block): block is TextBlock => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function imageOf(result: ToolResult<BrowserActionDetails>): ImageBlock | undefined {
  if (typeof result.content === "string") return undefined;
  return result.content.find((block): block is ImageBlock => block.type === "image");
}

/** Width and height from a PNG's IHDR chunk or a JPEG's SOF marker. */
function imageSize(image: ImageBlock): { width: number; height: number } {
  const bytes = Buffer.from(image.data, "base64");
  if (image.mediaType === "image/png") {
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  expect(image.mediaType).toBe("image/jpeg");
  expect(bytes[0]).toBe(0xff);
  expect(bytes[1]).toBe(0xd8);
  for (let at = 2; at < bytes.length; ) {
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error("no JPEG frame header");
}

/** Pids of processes whose command line mentions `needle`. */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

describe("browser_action before launch", () => {
  it.each([
    { action: "click", coordinate: "10,10" },
    { action: "type", text: "x" },
    { action: "scroll_down" },
    { action: "scroll_up" },
  ] as const)("$action says to launch first", async (input) => {
    const fresh = createBrowserActionTool({ session: newSession() });
    const result = await call(input, fresh);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not open.*"launch"/);
    await fresh.dispose();
  });

  it("close without a browser says there was nothing to close", async () => {
    const result = await call({ action: "close" }, createBrowserActionTool({ session: newSession() }));
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toMatch(/not open/);
  });
});

describe("browser_action with a real Chromium", () => {
  it("launch returns a viewport-sized screenshot, the URL, console lines and page errors", async () => {
    const result = await call({ action: "launch", url: `${pages.url}/` });
    expect(result.isError).toBeUndefined();
    const image = imageOf(result);
    expect(image).toBeDefined();
    expect(imageSize(image!)).toEqual({ width: 900, height: 600 });
    const text = textOf(result);
    expect(text).toContain(`Current URL: ${pages.url}/`);
    expect(text).toContain("[log] page ready");
    expect(text).toContain("[page error] boom from the page");
    expect(result.details?.url).toBe(`${pages.url}/`);
  });

  it("click at the button's coordinates changes the page", async () => {
    const x = BUTTON.x + BUTTON.width / 2;
    const y = BUTTON.y + BUTTON.height / 2;
    const result = await call({ action: "click", coordinate: `${x},${y}` });
    expect(result.isError).toBeUndefined();
    expect(result.details?.logs).toEqual(["[log] button says Pressed"]);
    expect(imageOf(result)).toBeDefined();
  });

  it("type goes into the focused input", async () => {
    const x = INPUT.x + INPUT.width / 2;
    const y = INPUT.y + INPUT.height / 2;
    await call({ action: "click", coordinate: `${x},${y}` });
    const result = await call({ action: "type", text: "hello" });
    expect(result.isError).toBeUndefined();
    expect(result.details?.logs.at(-1)).toBe("[log] input is hello");
    expect(imageOf(result)).toBeDefined();
  });

  it("launch again navigates the same browser; scroll_down and scroll_up move the page", async () => {
    const launched = await call({ action: "launch", url: `${pages.url}/long` });
    expect(textOf(launched)).toContain(`Current URL: ${pages.url}/long`);
    const down = await call({ action: "scroll_down" });
    expect(down.details?.logs.at(-1)).toBe("[log] scrollY=600");
    const downAgain = await call({ action: "scroll_down" });
    expect(downAgain.details?.logs.at(-1)).toBe("[log] scrollY=1200");
    const up = await call({ action: "scroll_up" });
    expect(up.details?.logs.at(-1)).toBe("[log] scrollY=600");
    expect(imageSize(imageOf(up)!)).toEqual({ width: 900, height: 600 });
  });

  it("a click outside the viewport or a bad coordinate is an error the model can fix", async () => {
    expect(textOf(await call({ action: "click", coordinate: "950,10" }))).toMatch(/outside the 900x600/);
    expect(textOf(await call({ action: "click", coordinate: "left" }))).toMatch(/"x,y"/);
  });

  it("a URL that never answers returns the timeout message and a screenshot within bounds", async () => {
    const started = Date.now();
    const result = await call({ action: "launch", url: `${hanging.url}/never` });
    const elapsed = Date.now() - started;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not finish loading within 2 s/);
    expect(elapsed).toBeGreaterThanOrEqual(NAVIGATION_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(NAVIGATION_TIMEOUT_MS + 6000);
    expect(imageOf(result)).toBeDefined();
  });

  it("an abort stops waiting for a navigation at once", async () => {
    const { ctx, controller } = createTestToolContext();
    const pending = tool.execute({ action: "launch", url: `${hanging.url}/slow` }, ctx);
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/aborted/);
  });

  it("close closes the browser, and its processes end", async () => {
    expect(processesMentioning(tempDir).length).toBeGreaterThan(0);
    const result = await call({ action: "close" });
    expect(textOf(result)).toBe("The browser was closed.");
    expect(processesMentioning(tempDir)).toEqual([]);
    const after = await call({ action: "scroll_down" });
    expect(after.isError).toBe(true);
    expect(textOf(after)).toMatch(/launch/);
  });

  it("dispose kills the browser and leaves no Chromium process behind", async () => {
    const own = createBrowserActionTool({ session: newSession() });
    const launched = await call({ action: "launch", url: `${pages.url}/` }, own);
    expect(launched.isError).toBeUndefined();
    expect(processesMentioning(tempDir).length).toBeGreaterThan(0);
    await own.dispose();
    expect(processesMentioning(tempDir)).toEqual([]);
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });
});
