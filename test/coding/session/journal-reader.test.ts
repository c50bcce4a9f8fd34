import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lastRecordTs, readFirstRecord, readJsonl } from "../../../src/coding/session/journal-reader.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "bowline-jsonl-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(text: string): string {
  const path = join(dir, "f.jsonl");
  writeFileSync(path, text);
  return path;
}

describe("reading JSONL journals", () => {
  it("skips blank lines, keeps line numbers, treats a missing file as empty", () => {
    expect(readJsonl(file('{"a":1}\n\n{"a":2}\n'))).toEqual({
      records: [
        { line: 1, value: { a: 1 } },
        { line: 3, value: { a: 2 } },
      ],
    });
    expect(readJsonl(join(dir, "missing.jsonl"))).toEqual({ records: [] });
  });

  it("decodes multi-byte characters", () => {
    expect(readJsonl(file('{"t":"héllo ✓ 日本"}\n')).records[0]!.value).toEqual({ t: "héllo ✓ 日本" });
  });

  it("does not quote a corrupt line in its error (it may hold secrets a tool read)", () => {
    expect(() => readJsonl(file('{"a":1}\nsk-secret-token\n{"a":2}\n'))).toThrow(/line 2 .*not JSON$/);
    expect(() => readJsonl(file('{"a":1}\nsk-secret-token\n{"a":2}\n'))).not.toThrow(/sk-secret/);
  });

  it("peeks at the last complete record's time, past a torn line and a record larger than a read", () => {
    const big = JSON.stringify({ ts: 2, text: "x".repeat(200_000) });
    expect(lastRecordTs(file(`{"ts":1}\n${big}\n{"ts":3,"tor`))).toBe(2);
    expect(lastRecordTs(file(`${big}\n`))).toBe(2);
    expect(lastRecordTs(file(""))).toBeUndefined();
    expect(lastRecordTs(join(dir, "missing.jsonl"))).toBeUndefined();
  });

  it("peeks at a small first record (a fork record)", () => {
    expect(readFirstRecord(file('{"type":"fork","fromTask":"a"}\n{"x":1}\n'))).toEqual({
      type: "fork",
      fromTask: "a",
    });
    expect(readFirstRecord(file(`${JSON.stringify({ text: "x".repeat(100_000) })}\n`))).toBeUndefined();
  });
});
