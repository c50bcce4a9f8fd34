/** The checkpoint commands of the protocol, answered by a live task session. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNonInteractivePolicy } from "../../src/coding/approval-rules.js";
import { createTaskSession } from "../../src/coding/controller.js";
import type { Event } from "../../src/protocol/index.js";
import { makeWorkspace } from "../support/cli.js";
import {
  type FakeModelServer,
  fakeAnthropicConfig,
  startFakeModelServer,
} from "../support/fake-model-server.js";

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
});

/** A session whose task writes notes.md then completes; `next(type)` waits for an event. */
async function notesSession() {
  server = await startFakeModelServer({
    script: [
      { toolCalls: [{ name: "write_to_file", input: { path: "notes.md", content: "# Notes\n" } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Wrote notes." } }] },
    ],
  });
  const { repo, home } = makeWorkspace();
  const events: Event[] = [];
  const waiters: Array<(e: Event) => boolean> = [];
  const next = (type: string) =>
    new Promise<any>((resolve) => {
      waiters.push((e) => {
        if (e.type !== type) return false;
        resolve(e);
        return true;
      });
    });
  const session = await createTaskSession({
    cwd: repo,
    home,
    modelConfig: fakeAnthropicConfig(server.url),
    policy: createNonInteractivePolicy({ yes: true, allow: [] }),
    interactive: false,
    emit: (e) => {
      events.push(e);
      for (const [i, w] of waiters.entries()) if (w(e)) waiters.splice(i, 1);
    },
  });
  return { repo, session, next };
}

describe("checkpoint commands", () => {
  it("list, diff and restore (files and conversation) through dispatch", async () => {
    const { repo, session, next } = await notesSession();
    try {
      expect((await session.run("Write notes.")).status).toBe("completed");
      expect(existsSync(join(repo, "notes.md"))).toBe(true);

      const listed = next("checkpoints_listed");
      session.dispatch({ type: "list_checkpoints" });
      const { checkpoints } = await listed;
      expect(checkpoints.map((c: any) => c.kind)).toEqual(["baseline", "step"]);

      const diffed = next("checkpoint_diff");
      session.dispatch({ type: "diff_checkpoints", from: checkpoints[0].id, to: checkpoints[1].id });
      const { diff } = await diffed;
      expect(diff.files).toEqual([expect.objectContaining({ path: "notes.md", status: "added", added: 1 })]);

      const restored = next("checkpoint_restored");
      session.dispatch({ type: "restore_checkpoint", checkpointId: checkpoints[0].id, mode: "both" });
      expect(await restored).toMatchObject({
        mode: "both",
        changed: [{ path: "notes.md", status: "deleted" }],
      });
      expect(existsSync(join(repo, "notes.md"))).toBe(false);
      // Back to the task message only.
      expect(session.task.history).toHaveLength(1);

      const failed = next("checkpoint_error");
      session.dispatch({ type: "restore_checkpoint", checkpointId: "0000000", mode: "files" });
      expect((await failed).message).toMatch(/0000000/);
    } finally {
      await session.close();
    }
  }, 30_000);

  it("answers a restore over the person's own changes with the conflicts, and restores when forced", async () => {
    const { repo, session, next } = await notesSession();
    try {
      expect((await session.run("Write notes.")).status).toBe("completed");
      writeFileSync(join(repo, "notes.md"), "# Notes, edited by the person\n");
      const listed = next("checkpoints_listed");
      session.dispatch({ type: "list_checkpoints" });
      const [baseline] = (await listed).checkpoints;

      const conflicts = next("checkpoint_restore_conflicts");
      session.dispatch({ type: "restore_checkpoint", checkpointId: baseline.id, mode: "files" });
      expect(await conflicts).toMatchObject({
        checkpointId: baseline.id,
        mode: "files",
        files: ["notes.md"],
      });
      expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("# Notes, edited by the person\n");

      const restored = next("checkpoint_restored");
      session.dispatch({ type: "restore_checkpoint", checkpointId: baseline.id, mode: "files", force: true });
      const { undoId } = await restored;
      expect(existsSync(join(repo, "notes.md"))).toBe(false);
      // The forced restore can be undone: the person's edit comes back.
      const undone = next("checkpoint_restored");
      session.dispatch({ type: "restore_checkpoint", checkpointId: undoId, mode: "files" });
      await undone;
      expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("# Notes, edited by the person\n");
    } finally {
      await session.close();
    }
  }, 30_000);
});
