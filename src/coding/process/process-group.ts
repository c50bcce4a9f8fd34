import fs from "node:fs";

/** What Linux's /proc/<pid>/stat says about one process. */
export interface ProcessStat {
  pid: number;
  /** The executable's name, at most 15 characters. */
  comm: string;
  /** R running, S sleeping, D disk, Z zombie, ... */
  state: string;
  pgrp: number;
}

/**
 * Programs that only supervise the command they start (the sandbox launcher, bubblewrap, both as
 * the monitor outside the sandbox and as the init inside it). What they are doing says nothing
 * about the command, and they end by themselves once it has.
 */
const SUPERVISORS = new Set(["bwrap"]);

export function isSupervisor(stat: ProcessStat): boolean {
  return SUPERVISORS.has(stat.comm);
}

/**
 * The live processes (zombies excluded) of the process group `pgid`, as seen in `proc`; undefined
 * when /proc cannot be read (not Linux). Never throws.
 */
export function listGroup(pgid: number, proc = "/proc"): ProcessStat[] | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(proc);
  } catch {
    return undefined;
  }
  const members: ProcessStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(`${proc}/${name}/stat`, Number(name));
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") members.push(stat);
  }
  return members;
}

function readStat(file: string, pid: number): ProcessStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  // The name is in parentheses and may itself contain spaces or parentheses.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return {
    pid,
    comm: text.slice(text.indexOf("(") + 1, close),
    state: fields[0] ?? "",
    pgrp: Number(fields[2]),
  };
}
