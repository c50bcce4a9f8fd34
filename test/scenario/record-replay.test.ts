/**
 * `--record` saves a session's provider traffic; `--replay` plays it back with no network and
 * no key, ending the same way, and says where a run departs from the recording.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, runCli } from "../support/cli.js";
import {
  API_KEYS,
  closeScenarios,
  complete,
  type Format,
  readJournalLines,
  resultOf,
  startScenario,
} from "./scenario.js";

afterEach(closeScenarios);

describe.each<Format>(["anthropic", "openai"])("record and replay over %s", (format) => {
  it("a replayed session ends like the recorded one, offline and without a key", async () => {
    const s = await startScenario(format, [
      { text: "Reading.", toolCalls: [{ name: "read_file", input: { path: "src/math.js" } }] },
      { fault: { kind: "http", status: 500 } },
      { toolCalls: [{ name: "list_files", input: { path: "src" } }] },
      complete("Looked around."),
    ]);
    const recording = join(s.home, "session.jsonl");
    const recorded = await s.run("Look around.", ["--output-format", "json", "--record", recording]);
    expect(recorded.code).toBe(0);
    expect(statSync(recording).mode & 0o777).toBe(0o600);
    expect(readFileSync(recording, "utf8")).not.toContain(API_KEYS[format]);
    await s.server.close();

    const again = makeWorkspace();
    const replayed = await runCli(["-p", "Look around.", "--output-format", "json", "--replay", recording], {
      cwd: again.repo,
      env: { BOWLINE_HOME: again.home },
    });
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(0);
    expect(resultOf(replayed)).toMatchObject({ status: "completed", result: "Looked around.", turns: 3 });
    const roles = (home: string) =>
      readJournalLines(home, "api_history.jsonl").records.map((r) =>
        JSON.stringify(r.message.content.map((b: any) => b.type)),
      );
    expect(roles(again.home)).toEqual(roles(s.home));
  });

  it("a run that departs from the recording fails and says where", async () => {
    const s = await startScenario(format, [complete("Nothing to do.")]);
    const recording = join(s.home, "short.jsonl");
    expect((await s.run("Do nothing.", ["--record", recording])).code).toBe(0);
    await s.server.close();

    const again = makeWorkspace();
    // The compact variant offers fewer tools: the first request already differs in shape.
    const replayed = await runCli(["-p", "Do nothing.", "--compact", "--replay", recording], {
      cwd: again.repo,
      env: { BOWLINE_HOME: again.home },
    });
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toMatch(/replay diverged at request 1: body\.\S+/);
  });
});

describe("replay of a file that is not a recording", () => {
  it("is refused before anything runs", async () => {
    const { repo, home } = makeWorkspace();
    const run = await runCli(["-p", "Go.", "--replay", join(repo, "package.json")], {
      cwd: repo,
      env: { BOWLINE_HOME: home },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot replay .*package\.json/);
  });
});
