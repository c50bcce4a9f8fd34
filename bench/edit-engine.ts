import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { applyEditBlocks, type EditBlock } from "../src/coding/edit/apply-blocks.js";
import { applyTextFormat, detectTextFormat, toLf } from "../src/coding/files/text-format.js";
import { ROOT, round } from "./support.js";

/**
 * The replace_in_file edit engine against a Cline-like baseline on SEARCH/REPLACE edits built from
 * real source files (zod and openai in node_modules), each with a distortion models make. An edit
 * inserts one line into a 3-12 line region; the model's SEARCH and the context it copies into
 * REPLACE carry the distortion. "wrong" = every block reported applied but the file differs from
 * the intended result (wrong place, or distorted context written into the file).
 */

const DISTORTIONS = [
  "none",
  "trailing-whitespace",
  "indentation-shift",
  "tabs-vs-spaces",
  "changed-middle-line",
  "truncated-context",
  "crlf-file",
  "out-of-order",
] as const;
type Distortion = (typeof DISTORTIONS)[number];

const PER_DISTORTION = 40;
const SEED = 20240611;

interface Case {
  distortion: Distortion;
  file: string;
  blocks: EditBlock[];
  expected: string;
}

interface Outcome {
  allApplied: boolean;
  content: string;
  stages: string[];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|ts|mjs)$/.test(name) && !name.endsWith(".map")) out.push(path);
    }
  };
  for (const pkg of ["zod/v4", "openai/src"]) walk(join(ROOT, "node_modules", pkg));
  return out.filter((path) => {
    const lines = readFileSync(path, "utf8").split("\n").length;
    return lines >= 60 && lines <= 3000;
  });
}

const indentOf = (line: string) => /^[\t ]*/.exec(line)?.[0] ?? "";

function distortLines(lines: string[], distortion: Distortion, usesTabs: boolean, skip: number): string[] {
  switch (distortion) {
    case "trailing-whitespace":
      return lines.map((l, i) => (i % 2 === 0 ? `${l}  ` : l));
    case "indentation-shift": {
      const canRemove = lines.every((l) => l.trim() === "" || indentOf(l).length >= 2);
      return lines.map((l) => (l.trim() === "" ? l : canRemove ? l.slice(2) : `  ${l}`));
    }
    case "tabs-vs-spaces":
      return lines.map((l) => {
        const ws = indentOf(l);
        const converted = usesTabs ? ws.replace(/\t/g, "    ") : ws.replace(/ {2}/g, "\t");
        return converted + l.slice(ws.length);
      });
    case "changed-middle-line":
      return lines.map((l, i) => (i === skip ? l.replace(/[A-Za-z_]\w*/, (w) => `${w}Old`) : l));
    case "truncated-context":
      return lines.filter((_, i) => i !== skip);
    default:
      return lines;
  }
}

/** A region of `lines` whose text is unique, with its insertion point. */
function pickRegion(lines: string[], text: string, rand: () => number, needIndent: boolean) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const size = 3 + Math.floor(rand() * 10);
    const start = Math.floor(rand() * Math.max(1, lines.length - size));
    const region = lines.slice(start, start + size);
    if (region.length < size || region.filter((l) => l.trim() !== "").length < 3) continue;
    if (needIndent && !region.every((l) => l.trim() === "" || /^[\t ]{2,}|^\t/.test(l))) continue;
    const joined = `${region.join("\n")}\n`;
    if (text.indexOf(joined) !== text.lastIndexOf(joined)) continue;
    return { start, size, region };
  }
  return undefined;
}

function buildCase(path: string, distortion: Distortion, rand: () => number, id: number): Case | undefined {
  const text = toLf(readFileSync(path, "utf8"));
  const lines = text.split("\n");
  const usesTabs =
    lines.filter((l) => l.startsWith("\t")).length > lines.filter((l) => l.startsWith("  ")).length;
  const needIndent = distortion === "tabs-vs-spaces" || distortion === "indentation-shift";
  const edits: Array<{ start: number; size: number; block: EditBlock; after: string[] }> = [];
  for (let n = 0; n < (distortion === "out-of-order" ? 2 : 1); n++) {
    const picked = pickRegion(lines, text, rand, needIndent);
    if (picked === undefined) return undefined;
    const { start, size, region } = picked;
    if (edits.some((e) => start < e.start + e.size + 1 && e.start < start + size + 1)) return undefined;
    const at = 1 + Math.floor(rand() * (size - 2));
    const skip = at === 1 ? 2 : 1;
    const base = [...region.slice(0, at + 1)].reverse().find((l) => l.trim() !== "") ?? "";
    const added = `${indentOf(base)}trace("bench edit ${id}.${n}");`;
    const after = [...region.slice(0, at + 1), added, ...region.slice(at + 1)];
    const modelRegion = distortLines(region, distortion, usesTabs, skip);
    const addedDistortion = ["indentation-shift", "tabs-vs-spaces"].includes(distortion)
      ? distortion
      : "none";
    // The new line is distorted together with the region, as a model shifts its whole block.
    const modelAdded = distortLines([...region, added], addedDistortion, usesTabs, -1).at(-1)!;
    const keptIndex = distortion === "truncated-context" && skip <= at ? at : at + 1;
    const modelAfter = [...modelRegion.slice(0, keptIndex), modelAdded, ...modelRegion.slice(keptIndex)];
    edits.push({ start, size, block: { search: modelRegion, replace: modelAfter }, after });
  }
  const expectedLines = [...lines];
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    expectedLines.splice(e.start, e.size, ...e.after);
  // Out of order: the block for the later region comes first.
  const ordered = [...edits].sort((a, b) => b.start - a.start).map((e) => e.block);
  const crlf = distortion === "crlf-file";
  const expected = expectedLines.join("\n");
  return {
    distortion,
    file: crlf ? text.replace(/\n/g, "\r\n") : text,
    blocks: ordered,
    expected: crlf ? expected.replace(/\n/g, "\r\n") : expected,
  };
}

function runOurs(c: Case): Outcome {
  if (process.env.BENCH_DEBUG) debugCase(c);
  const result = applyEditBlocks(toLf(c.file), c.blocks);
  return {
    allApplied: result.failed.length === 0,
    content: applyTextFormat(result.content, detectTextFormat(c.file)),
    stages: result.applied.map((a) => a.stage),
  };
}

/** Cline's v1 matcher: exact from the last match, line-trimmed, first/last anchors, then exact anywhere. */
function runBaseline(c: Case): Outcome {
  let lines = c.file.split("\n");
  let last = 0;
  const stages: string[] = [];
  for (const block of c.blocks) {
    const n = block.search.length;
    const at = (from: number, test: (k: number, i: number) => boolean) => {
      for (let i = from; i + n <= lines.length; i++) if (block.search.every((_, k) => test(k, i))) return i;
      return -1;
    };
    const tries: Array<[string, () => number]> = [
      ["exact", () => at(last, (k, i) => lines[i + k] === block.search[k])],
      ["line-trimmed", () => at(last, (k, i) => lines[i + k]!.trim() === block.search[k]!.trim())],
      [
        "anchors",
        () =>
          n >= 3
            ? at(last, (k, i) => (k > 0 && k < n - 1) || lines[i + k]!.trim() === block.search[k]!.trim())
            : -1,
      ],
      ["exact-anywhere", () => at(0, (k, i) => lines[i + k] === block.search[k])],
    ];
    const hit = tries.map(([stage, find]) => [stage, find()] as const).find(([, i]) => i !== -1);
    if (hit === undefined) return { allApplied: false, content: c.file, stages };
    stages.push(hit[0]);
    lines = [...lines.slice(0, hit[1]), ...block.replace, ...lines.slice(hit[1] + n)];
    last = hit[1] + block.replace.length;
  }
  return { allApplied: true, content: lines.join("\n"), stages };
}

interface Tally {
  cases: number;
  correct: number;
  wrong: number;
  refused: number;
}

const tally = (): Tally => ({ cases: 0, correct: 0, wrong: 0, refused: 0 });

function score(t: Tally, outcome: Outcome, expected: string) {
  t.cases++;
  if (!outcome.allApplied) t.refused++;
  else if (outcome.content === expected) t.correct++;
  else t.wrong++;
}

export async function benchEditEngine() {
  const rand = mulberry32(SEED);
  const files = sourceFiles();
  const cases: Case[] = [];
  for (const distortion of DISTORTIONS) {
    let made = 0;
    for (let guard = 0; made < PER_DISTORTION && guard < PER_DISTORTION * 20; guard++) {
      const c = buildCase(files[Math.floor(rand() * files.length)]!, distortion, rand, cases.length);
      if (c !== undefined) {
        cases.push(c);
        made++;
      }
    }
  }
  const perDistortion: Record<string, { ours: Tally; baseline: Tally }> = {};
  const oursStages: Record<string, number> = {};
  const baselineStages: Record<string, number> = {};
  const ours = tally();
  const baseline = tally();
  const started = performance.now();
  for (const c of cases) {
    perDistortion[c.distortion] ??= { ours: tally(), baseline: tally() };
    const entry = perDistortion[c.distortion]!;
    const o = runOurs(c);
    const b = runBaseline(c);
    for (const [t, outcome] of [
      [entry.ours, o],
      [ours, o],
      [entry.baseline, b],
      [baseline, b],
    ] as const)
      score(t, outcome, c.expected);
    for (const s of o.stages) oursStages[s] = (oursStages[s] ?? 0) + 1;
    for (const s of b.stages) baselineStages[s] = (baselineStages[s] ?? 0) + 1;
  }
  const rate = (t: Tally) => round(t.correct / Math.max(1, t.cases), 3);
  return {
    sourceFiles: files.length,
    cases: cases.length,
    seed: SEED,
    overall: {
      ours: { ...ours, successRate: rate(ours) },
      baseline: { ...baseline, successRate: rate(baseline) },
    },
    perDistortion: Object.fromEntries(
      Object.entries(perDistortion).map(([d, v]) => [
        d,
        {
          ours: { ...v.ours, successRate: rate(v.ours) },
          baseline: { ...v.baseline, successRate: rate(v.baseline) },
        },
      ]),
    ),
    stagesUsed: { ours: oursStages, baseline: baselineStages },
    wrongPlaceOurs: ours.wrong,
    msTotal: round(performance.now() - started, 1),
    met: { noWrongApplications: ours.wrong === 0 },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchEditEngine(), null, 2)}\n`);
}

function debugCase(c: Case) {
  const result = applyEditBlocks(toLf(c.file), c.blocks);
  const content = applyTextFormat(result.content, detectTextFormat(c.file));
  if (result.failed.length > 0 || content === c.expected) return;
  const a = content.split("\n");
  const b = c.expected.split("\n");
  const i = a.findIndex((l, k) => l !== b[k]);
  process.stderr.write(
    `${c.distortion} ${JSON.stringify(result.applied)}\nSEARCH ${JSON.stringify(c.blocks[0]?.search)}\nGOT ${JSON.stringify(a.slice(i - 2, i + 4))}\nWANT ${JSON.stringify(b.slice(i - 2, i + 4))}\n`,
  );
}
