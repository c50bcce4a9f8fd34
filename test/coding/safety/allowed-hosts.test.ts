/**
 * `sandbox.allowedHosts`: what an entry means, how user and project settings combine, and that a
 * project listing hosts asks for trust like one adding allow rules.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalSettingsError } from "../../../src/coding/approvals/approval-settings.js";
import {
  formatAllowedHost,
  hostAllowed,
  parseAllowedHost,
} from "../../../src/coding/safety/allowed-hosts.js";
import { mergePermissions } from "../../../src/coding/safety/permission-settings.js";
import { loadPermissionSetup } from "../../../src/coding/safety/permission-setup.js";
import { projectTrustSubject } from "../../../src/coding/safety/project-trust.js";
import { createWorkspace } from "../../../src/coding/workspace.js";

const allowed = (...entries: string[]) => entries.map(parseAllowedHost);

describe("allowed host entries", () => {
  it("a bare name allows ports 80 and 443 of that name only", () => {
    const hosts = allowed("Registry.npmjs.org");
    expect(hostAllowed(hosts, "registry.npmjs.org", 443)).toBe(true);
    expect(hostAllowed(hosts, "REGISTRY.NPMJS.ORG.", 80)).toBe(true);
    expect(hostAllowed(hosts, "registry.npmjs.org", 22)).toBe(false);
    expect(hostAllowed(hosts, "evil.registry.npmjs.org", 443)).toBe(false);
    expect(hostAllowed(hosts, "registry.npmjs.org.evil.com", 443)).toBe(false);
    expect(hostAllowed(hosts, "npmjs.org", 443)).toBe(false);
  });

  it("a port allows that port only; *.domain allows names below it, not the domain", () => {
    const hosts = allowed("example.com:8443", "*.githubusercontent.com");
    expect(hostAllowed(hosts, "example.com", 8443)).toBe(true);
    expect(hostAllowed(hosts, "example.com", 443)).toBe(false);
    expect(hostAllowed(hosts, "raw.githubusercontent.com", 443)).toBe(true);
    expect(hostAllowed(hosts, "a.b.githubusercontent.com", 80)).toBe(true);
    expect(hostAllowed(hosts, "githubusercontent.com", 443)).toBe(false);
    expect(hostAllowed(hosts, "xgithubusercontent.com", 443)).toBe(false);
    expect(hosts.map(formatAllowedHost)).toEqual(["example.com:8443", "*.githubusercontent.com"]);
  });

  it("refuses entries that are not a host, naming them", () => {
    for (const bad of [
      "*",
      "*.",
      "https://example.com",
      "example.com/path",
      "a..b",
      "host:0",
      "host:70000",
      "*.*.com",
      "-x.com",
      "",
    ]) {
      expect(() => parseAllowedHost(bad), bad).toThrow(/sandbox\.allowedHosts: ".*" is not a host name/);
    }
  });
});

describe("allowed hosts in settings", () => {
  it("the user's count; the project's only when it is trusted", () => {
    const user = { sandbox: { allowedHosts: ["registry.npmjs.org"] } };
    const project = { sandbox: { allowedHosts: ["pypi.org", "files.pythonhosted.org"] } };
    const untrusted = mergePermissions({ user, project, projectTrusted: false });
    expect(untrusted.sandbox.allowedHosts.map(formatAllowedHost)).toEqual(["registry.npmjs.org"]);
    expect(untrusted.ignored).toContain("sandbox.allowedHosts (2): this project's settings are not trusted");
    const trusted = mergePermissions({ user, project, projectTrusted: true });
    expect(trusted.sandbox.allowedHosts.map(formatAllowedHost)).toEqual([
      "registry.npmjs.org",
      "pypi.org",
      "files.pythonhosted.org",
    ]);
  });

  it("a bad entry is a settings error naming the file's kind and the entry", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-home-"));
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-ws-"));
    try {
      fs.writeFileSync(
        path.join(home, "approvals.json"),
        JSON.stringify({ sandbox: { allowedHosts: ["https://example.com"] } }),
      );
      const setup = loadPermissionSetup({ home, workspace: createWorkspace(root) });
      await expect(setup).rejects.toThrow(ApprovalSettingsError);
      await expect(setup).rejects.toThrow(/user settings: sandbox\.allowedHosts: "https:\/\/example\.com"/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("a project listing hosts asks for trust, and a change to them asks again", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "bowline-ws-"));
    try {
      fs.mkdirSync(path.join(root, ".bowline"));
      const write = (hosts: string[]) =>
        fs.writeFileSync(
          path.join(root, ".bowline", "approvals.json"),
          JSON.stringify({ sandbox: { allowedHosts: hosts } }),
        );
      write(["pypi.org"]);
      const first = projectTrustSubject(root);
      expect(first?.reasons).toEqual([
        "1 host(s) sandboxed commands may reach, in .bowline/approvals.json: pypi.org",
      ]);
      write(["pypi.org", "evil.example"]);
      expect(projectTrustSubject(root)?.hash).not.toBe(first?.hash);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
