import { homedir } from "node:os";
import { join } from "node:path";

/** The root of Bowline's own storage: `$BOWLINE_HOME`, else `~/.bowline`. */
export function bowlineHome(env: Record<string, string | undefined> = process.env): string {
  return env.BOWLINE_HOME || join(homedir(), ".bowline");
}

export function tasksDir(home: string): string {
  return join(home, "tasks");
}

/** Sortable, unique task ids: time first, then randomness. */
export function newTaskId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  // Uniqueness, not secrecy, is needed here (and node:crypto costs start-up time).
  const random = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, "0");
  return `${stamp}-${random}`;
}
