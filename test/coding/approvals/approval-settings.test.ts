import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_SETTINGS } from "../../../src/agent/pipeline/approval-policy.js";
import {
  ApprovalSettingsError,
  approvalSettingsFiles,
  loadApprovalSettings,
  mergeApprovalSettings,
  parseApprovalSettings,
} from "../../../src/coding/approvals/approval-settings.js";

describe("parseApprovalSettings", () => {
  it("accepts any subset, from text or a parsed value", () => {
    expect(parseApprovalSettings('{"editInsideWorkspace": true}')).toEqual({ editInsideWorkspace: true });
    expect(parseApprovalSettings({ mcpAlwaysAllow: ["gh__mcp__list"], yolo: false })).toEqual({
      mcpAlwaysAllow: ["gh__mcp__list"],
      yolo: false,
    });
    expect(parseApprovalSettings({})).toEqual({});
  });

  it("names the source and every problem, with the valid settings", () => {
    let error: unknown;
    try {
      parseApprovalSettings(
        { editFiles: true, safeCommands: "yes", mcpAlwaysAllow: ["github"] },
        "/p/approvals.json",
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApprovalSettingsError);
    const message = (error as ApprovalSettingsError).message;
    expect((error as ApprovalSettingsError).code).toBe("invalid_approval_settings");
    expect(message).toMatch(/^\/p\/approvals\.json is invalid:/);
    expect(message).toMatch(/editFiles/);
    expect(message).toMatch(/safeCommands: .*boolean/);
    expect(message).toMatch(/mcpAlwaysAllow\.0: must be <server>__mcp__<tool>/);
    expect(message).toMatch(/Valid settings: readInsideWorkspace, readOutsideWorkspace/);
  });

  it("reports bad JSON and non-objects", () => {
    expect(() => parseApprovalSettings("{nope", "f.json")).toThrow(/^f\.json: not valid JSON/);
    expect(() => parseApprovalSettings("[]", "f.json")).toThrow(/f\.json is invalid/);
  });
});

describe("mergeApprovalSettings", () => {
  it("applies user settings over the defaults in both directions", () => {
    const { settings, ignored } = mergeApprovalSettings(
      { readInsideWorkspace: false, editInsideWorkspace: true },
      {},
    );
    expect(settings).toEqual({
      ...DEFAULT_APPROVAL_SETTINGS,
      readInsideWorkspace: false,
      editInsideWorkspace: true,
    });
    expect(ignored).toEqual([]);
  });

  it("lets the project only tighten", () => {
    const { settings, ignored } = mergeApprovalSettings(
      { editInsideWorkspace: true, safeCommands: true, mcpAlwaysAllow: ["a__mcp__x", "a__mcp__y"] },
      {
        editInsideWorkspace: false,
        yolo: true,
        allCommands: true,
        safeCommands: true,
        mcpAlwaysAllow: ["a__mcp__y", "b__mcp__z"],
      },
    );
    expect(settings.editInsideWorkspace).toBe(false);
    expect(settings.yolo).toBe(false);
    expect(settings.allCommands).toBe(false);
    expect(settings.safeCommands).toBe(true);
    expect(settings.mcpAlwaysAllow).toEqual(["a__mcp__y"]);
    expect(ignored).toEqual([
      "yolo: the project settings cannot turn on what the user settings leave off",
      "allCommands: the project settings cannot turn on what the user settings leave off",
      "mcpAlwaysAllow b__mcp__z: the project settings cannot allow what the user settings do not",
    ]);
  });

  it("does not change the defaults object", () => {
    mergeApprovalSettings({ mcpAlwaysAllow: ["a__mcp__b"] }, {});
    expect(DEFAULT_APPROVAL_SETTINGS.mcpAlwaysAllow).toEqual([]);
  });
});

describe("loadApprovalSettings", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "bowline-approvals-"));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("reads and merges both files; missing files are empty", async () => {
    const files = approvalSettingsFiles(path.join(dir, "home"), path.join(dir, "ws"));
    expect(files).toEqual({
      user: path.join(dir, "home", "approvals.json"),
      project: path.join(dir, "ws", ".bowline", "approvals.json"),
    });
    // The coding defaults: read-only command lines run without asking.
    expect((await loadApprovalSettings(files)).settings).toEqual({
      ...DEFAULT_APPROVAL_SETTINGS,
      safeCommands: true,
    });
    await fs.mkdir(path.dirname(files.user), { recursive: true });
    await fs.mkdir(path.dirname(files.project), { recursive: true });
    await fs.writeFile(files.user, JSON.stringify({ editInsideWorkspace: true, browser: true }));
    await fs.writeFile(files.project, JSON.stringify({ browser: false }));
    const { settings } = await loadApprovalSettings(files);
    expect(settings).toMatchObject({ editInsideWorkspace: true, browser: false });
  });

  it("names the file that is broken", async () => {
    const user = path.join(dir, "approvals.json");
    await fs.writeFile(user, '{"yolo": "please"}');
    await expect(loadApprovalSettings({ user })).rejects.toThrow(`${user} is invalid`);
    await expect(loadApprovalSettings({ user: dir })).rejects.toThrow(/cannot be read/);
  });
});
