import fs from "node:fs";
import { isSupervisor, listGroup } from "./process-group.js";

/**
 * What the processes of a group are doing, as far as Linux's /proc tells:
 * - `waiting-for-input`: every live process sleeps either reading a terminal, a pipe or a FIFO
 *   (or opening a FIFO nobody writes to), or waiting for its own children, and at least one of
 *   them is reading;
 * - `busy`: something else (running, sleeping on a timer, a socket, epoll, disk);
 * - `unknown`: not Linux, or /proc could not be read.
 */
export type GroupActivity = "waiting-for-input" | "busy" | "unknown";

type ProcessActivity = "reading" | "waiting-for-children" | "other";

/** Syscall numbers per architecture (from the kernel's syscall tables). */
const SYSCALLS: Partial<Record<NodeJS.Architecture, { read: number[]; wait: number[]; open: number[] }>> = {
  // read, pread64, readv, preadv, preadv2 | wait4, waitid | open, openat, openat2
  x64: { read: [0, 17, 19, 295, 327], wait: [61, 247], open: [2, 257, 437] },
  // read, readv, pread64, preadv, preadv2 | wait4, waitid | openat, openat2
  arm64: { read: [63, 65, 67, 69, 286], wait: [260, 95], open: [56, 437] },
};

/** Kernel functions a task sleeps in while opening a FIFO that has no writer. */
const FIFO_OPEN_WCHAN = new Set(["wait_for_partner", "fifo_open"]);

/**
 * Classifies the process group `pgid`. Supervisors (the sandbox launcher) are left out: they only
 * wait for the command they run. Contract: never throws; anything unreadable makes the answer
 * `unknown` or `busy`, never a false `waiting-for-input`.
 */
export function probeGroupActivity(pgid: number, proc = "/proc"): GroupActivity {
  const numbers = SYSCALLS[process.arch];
  if (process.platform !== "linux" || numbers === undefined) return "unknown";
  const members = listGroup(pgid, proc)?.filter((stat) => !isSupervisor(stat));
  if (members === undefined || members.length === 0) return "unknown";
  let reading = 0;
  for (const stat of members) {
    const activity = stat.state === "S" ? classify(`${proc}/${stat.pid}`, numbers) : "other";
    if (activity === "other") return "busy";
    if (activity === "reading") reading++;
  }
  return reading > 0 ? "waiting-for-input" : "busy";
}

function classify(dir: string, numbers: { read: number[]; wait: number[]; open: number[] }): ProcessActivity {
  let syscall: string[];
  try {
    syscall = fs.readFileSync(`${dir}/syscall`, "utf8").trim().split(" ");
  } catch {
    return "other";
  }
  const nr = Number(syscall[0]);
  if (numbers.wait.includes(nr)) return "waiting-for-children";
  if (numbers.read.includes(nr)) {
    const fd = Number.parseInt(syscall[1] ?? "", 16);
    return Number.isInteger(fd) && isInputSource(`${dir}/fd/${fd}`) ? "reading" : "other";
  }
  if (numbers.open.includes(nr)) return FIFO_OPEN_WCHAN.has(readWchan(dir)) ? "reading" : "other";
  return "other";
}

function readWchan(dir: string): string {
  try {
    return fs.readFileSync(`${dir}/wchan`, "utf8").trim();
  } catch {
    return "";
  }
}

/** A terminal, a pipe or a FIFO: what a person or another program would have to write to. */
function isInputSource(fdLink: string): boolean {
  let target: string;
  try {
    target = fs.readlinkSync(fdLink);
  } catch {
    return false;
  }
  if (target.startsWith("pipe:[")) return true;
  if (/^\/dev\/(tty|pts\/|ptmx$|console$)/.test(target)) return true;
  try {
    return fs.statSync(fdLink).isFIFO();
  } catch {
    return false;
  }
}
