import path from "node:path";
import { describe, expect, it } from "vitest";
import { findBrowser } from "../../../src/coding/browser/find-browser.js";
import { resolveBrowserUrl } from "../../../src/coding/browser/resolve-url.js";
import { createBrowserActionTool, parseCoordinate } from "../../../src/coding/tools/browser-action.js";
import { createTempWorkspace } from "../temp-workspace.js";

const VIEWPORT = { width: 900, height: 600 };

describe("parseCoordinate", () => {
  it("reads x,y with spaces, decimals or parentheses", () => {
    expect(parseCoordinate("450,300", VIEWPORT)).toEqual({ x: 450, y: 300 });
    expect(parseCoordinate(" (12.5 , 7) ", VIEWPORT)).toEqual({ x: 12.5, y: 7 });
  });

  it("explains a missing, malformed or out-of-viewport coordinate", () => {
    expect(parseCoordinate(undefined, VIEWPORT)).toMatch(/needs a coordinate/);
    expect(parseCoordinate("450 300", VIEWPORT)).toMatch(/not of the form/);
    expect(parseCoordinate("900,10", VIEWPORT)).toMatch(/outside the 900x600 viewport/);
    expect(parseCoordinate("-1,10", VIEWPORT)).toMatch(/not of the form|outside/);
  });
});

describe("resolveBrowserUrl", () => {
  it("keeps URLs with a scheme and adds one to host names", () => {
    expect(resolveBrowserUrl("http://localhost:3000/a")).toEqual({
      ok: true,
      url: "http://localhost:3000/a",
    });
    expect(resolveBrowserUrl("localhost:5173")).toEqual({ ok: true, url: "http://localhost:5173" });
    expect(resolveBrowserUrl("127.0.0.1:8080/x")).toEqual({ ok: true, url: "http://127.0.0.1:8080/x" });
    expect(resolveBrowserUrl("example.com/docs")).toEqual({ ok: true, url: "https://example.com/docs" });
    expect(resolveBrowserUrl("data:text/html,hi")).toEqual({ ok: true, url: "data:text/html,hi" });
  });

  it("turns a workspace HTML file into a file: URL, and explains anything else", async () => {
    const temp = await createTempWorkspace({ "index.html": "<p>hi</p>" });
    try {
      const resolved = resolveBrowserUrl("index.html", temp.workspace);
      expect(resolved).toEqual({ ok: true, url: `file://${path.join(temp.root, "index.html")}` });
      const missing = resolveBrowserUrl("nothing-here", temp.workspace);
      expect(missing.ok).toBe(false);
    } finally {
      await temp.remove();
    }
  });
});

describe("findBrowser", () => {
  it("prefers the option, then BOWLINE_CHROMIUM, and skips paths that are not executable files", () => {
    const node = process.execPath;
    expect(findBrowser({ executablePath: node, env: {} })).toBe(node);
    expect(findBrowser({ executablePath: "/nonexistent/chrome", env: { BOWLINE_CHROMIUM: node } })).toBe(
      node,
    );
    expect(findBrowser({ env: { BOWLINE_CHROMIUM: "/tmp" } })).not.toBe("/tmp");
  });
});

describe("browser_action tool shape", () => {
  it("is a mutating browser-category tool with the six actions", () => {
    const tool = createBrowserActionTool({ executablePath: "/nonexistent" });
    expect(tool.name).toBe("browser_action");
    expect(tool.mutates).toBe(true);
    expect(tool.category).toBe("browser");
    expect(tool.description).toContain("900x600");
    expect(tool.summarize({ action: "click", coordinate: "1,2" })).toBe("browser_action click 1,2");
  });
});
