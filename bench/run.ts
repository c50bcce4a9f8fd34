import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchCheckpoints } from "./checkpoints.js";
import { benchColdStart } from "./cold-start.js";
import { benchCommandAnalysis } from "./command-analysis.js";
import { benchCompaction } from "./compaction.js";
import { benchCompactionLoop } from "./compaction-loop.js";
import { benchCrashResume } from "./crash-resume.js";
import { benchEditEngine } from "./edit-engine.js";
import { benchFaultSurvival } from "./fault-survival.js";
import { benchHarnessOverhead } from "./harness-overhead.js";
import { benchJournalGrowth } from "./journal-growth.js";
import { benchMcp } from "./mcp.js";
import { benchPromptAsSent } from "./prompt-as-sent.js";
import { benchPromptBudget } from "./prompt-budget.js";
import { benchPromptCache } from "./prompt-cache.js";
import { benchSearch } from "./search.js";
import { benchSessionMemory } from "./session-memory.js";
import { benchSessionResume } from "./session-resume.js";
import { ROOT } from "./support.js";
import { benchTui } from "./tui.js";
import { benchXmlParser } from "./xml-parser.js";

/** `npm run bench`: runs every benchmark, prints one JSON document and saves it in bench/results/. */
const targets = {
  firstRequestMs: 200,
  versionOverNode: 2,
  overheadMedianMs: 8,
  peakRssMb: 120,
  journalWrittenOverFinal: 1.5,
};

const coldStart = await benchColdStart(Number(process.env.BENCH_RUNS ?? 10));
const turns = Number(process.env.BENCH_TURNS ?? 200);
// Warm the code cache as any second start would find it, then measure.
const cacheHome = mkdtempSync(join(tmpdir(), "bowline-bench-cache-"));
for (const format of ["anthropic", "openai"] as const)
  await benchHarnessOverhead({ turns: 2, format, cacheHome });
const harness = [
  await benchHarnessOverhead({ turns, format: "anthropic", cacheHome }),
  await benchHarnessOverhead({ turns, format: "openai", cacheHome }),
];
const xmlParser = await benchXmlParser();
const promptBudget = await benchPromptBudget();
const promptAsSent = await benchPromptAsSent();
const editEngine = await benchEditEngine();
const search = await benchSearch();
const promptCache = await benchPromptCache();
const faultSurvival = await benchFaultSurvival();
const journalGrowth = await benchJournalGrowth();
const sessionResume = await benchSessionResume();
const crashResume = await benchCrashResume();
const compaction = await benchCompaction({ turns: 300 });
const compactionLoop = await benchCompactionLoop();
const mcp = await benchMcp();
const checkpoints = await benchCheckpoints();
const commandAnalysis = await benchCommandAnalysis();
const tui = await benchTui();
const sessionMemory = await benchSessionMemory();
const worst = (pick: (h: (typeof harness)[number]) => number) => Math.max(...harness.map(pick));
const result = {
  date: new Date().toISOString(),
  node: process.version,
  coldStart,
  harness,
  xmlParser,
  promptBudget,
  promptAsSent,
  editEngine,
  search,
  promptCache,
  faultSurvival,
  journalGrowth,
  sessionResume,
  crashResume,
  compaction,
  compactionLoop,
  mcp,
  checkpoints,
  commandAnalysis,
  tui,
  sessionMemory,
  targets,
  met: {
    firstRequest: coldStart.firstRequestMs <= targets.firstRequestMs,
    version: coldStart.versionOverNode <= targets.versionOverNode,
    overheadMedian: worst((h) => h.overheadMs.median) <= targets.overheadMedianMs,
    growthAtMostLinear: harness.every((h) => h.overheadMs.growthLastOverFirst <= h.turns / 20),
    peakRss: worst((h) => h.peakRssMb) <= targets.peakRssMb,
    journal: worst((h) => h.journal.writtenOverFinal) <= targets.journalWrittenOverFinal,
    xmlParserOneMb: xmlParser.met.oneMb,
    xmlParserLinear: xmlParser.met.growth,
    promptBudgetDefault: promptBudget.met.defaultTokens,
    promptBudgetCompact: promptBudget.met.compactTokens,
    promptAsSentDefault: Math.max(promptAsSent.anthropic.totalTokens, promptAsSent.openai.totalTokens) < 3000,
    promptAsSentCompact: promptAsSent.compact.totalTokens < 1000,
    editEngineNoWrongPlace: editEngine.met.noWrongApplications,
    searchWithinRg: search.met.searchOverRg,
    listFilesUnder300ms: search.met.listMs,
    promptCacheAbove90FromTurn3: promptCache.met.above90FromTurn3,
    faultSurvival: faultSurvival.met.survives,
    journalWrittenAtMost1_5xOver1000Messages: journalGrowth.met.atMost1_5x,
    sessionResumeUnder500ms: sessionResume.met.load,
    crashResume: crashResume.met.survives,
    compaction: Object.values(compaction.met).every(Boolean),
    compactionLoop: Object.values(compactionLoop.met).every(Boolean),
    registryPerTurn: promptBudget.met.cachedTurn && promptBudget.met.coldTurn,
    tui: Object.values(tui.met).every(Boolean),
  },
};
const dir = join(ROOT, "bench", "results");
mkdirSync(dir, { recursive: true });
const text = `${JSON.stringify(result, null, 2)}\n`;
writeFileSync(join(dir, "latest.json"), text);
writeFileSync(join(dir, `bench-${result.date.replace(/[:.]/g, "-")}.json`), text);
process.stdout.write(text);
