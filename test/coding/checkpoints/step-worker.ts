/**
 * Another Bowline process in the same workspace: takes a baseline and `count` steps for one task,
 * each after writing a file of its own, and prints the checkpoint ids as JSON. It creates
 * `<taskId>.started` in the workspace when its steps begin.
 * Usage: node --import tsx step-worker.ts <home> <workspace> <taskId> <count>
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isUnavailable, openCheckpoints } from "../../../src/coding/checkpoints/index.js";

const [home = "", workspace = "", taskId = "", count = "0"] = process.argv.slice(2);
const task = await openCheckpoints({ home, workspace, taskId });
if (isUnavailable(task)) throw new Error(task.message);
const ids: string[] = [];
const record = (outcome: Awaited<ReturnType<typeof task.afterStep>>) => {
  if (isUnavailable(outcome)) throw new Error(outcome.message);
  ids.push(outcome.checkpoint.id);
};
record(await task.baseline());
mkdirSync(join(workspace, taskId), { recursive: true });
writeFileSync(join(workspace, `${taskId}.started`), "");
for (let i = 0; i < Number(count); i++) {
  writeFileSync(join(workspace, taskId, `f${i}.txt`), `${taskId} ${i}\n`);
  record(await task.afterStep(`step ${i}`));
}
await task.settled();
process.stdout.write(JSON.stringify(ids));
