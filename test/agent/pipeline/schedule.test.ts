import { describe, expect, it } from "vitest";
import { runCalls } from "../../../src/agent/pipeline/schedule.js";

interface Call {
  id: string;
  readOnly: boolean;
}

const read = (id: string): Call => ({ id, readOnly: true });
const write = (id: string): Call => ({ id, readOnly: false });

/** Resolves once `parties` callers are waiting; fails (rather than hanging) if they never all arrive. */
function createBarrier(parties: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    arrived++;
    if (arrived === parties) open();
    let guard: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error(`only ${arrived} of ${parties} calls ran at once`)), 5000);
    });
    try {
      await Promise.race([opened, stuck]);
    } finally {
      clearTimeout(guard);
    }
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("runCalls", () => {
  it("runs consecutive read-only calls at the same time (both must reach a barrier)", async () => {
    const barrier = createBarrier(2);
    const results = await runCalls([read("a"), read("b")], {
      isReadOnly: (call) => call.readOnly,
      run: async (call) => {
        await barrier();
        return call.id;
      },
    });
    expect(results).toEqual([
      { status: "done", value: "a" },
      { status: "done", value: "b" },
    ]);
  });

  it("returns results in call order even when later calls finish first", async () => {
    const bDone = deferred();
    const finished: string[] = [];
    const results = await runCalls([read("a"), read("b")], {
      isReadOnly: () => true,
      run: async (call) => {
        if (call.id === "a") await bDone.promise;
        finished.push(call.id);
        if (call.id === "b") bDone.resolve();
        return call.id.toUpperCase();
      },
    });
    expect(finished).toEqual(["b", "a"]);
    expect(results.map((r) => r.status === "done" && r.value)).toEqual(["A", "B"]);
  });

  it("runs a mutating call alone: after every earlier call, before every later one", async () => {
    const log: string[] = [];
    const first = createBarrier(2);
    const second = createBarrier(2);
    const calls = [read("r1"), read("r2"), write("w1"), write("w2"), read("r3"), read("r4")];
    const results = await runCalls(calls, {
      isReadOnly: (call) => call.readOnly,
      run: async (call) => {
        log.push(`start ${call.id}`);
        if (call.id === "r1" || call.id === "r2") await first();
        if (call.id === "r3" || call.id === "r4") await second();
        await Promise.resolve();
        log.push(`end ${call.id}`);
        return call.id;
      },
    });
    const at = (entry: string) => log.indexOf(entry);
    expect(at("start w1")).toBeGreaterThan(Math.max(at("end r1"), at("end r2")));
    expect(at("start w2")).toBe(at("end w1") + 1);
    expect(at("start r3")).toBe(at("end w2") + 1);
    expect(Math.min(at("start r3"), at("start r4"))).toBeGreaterThan(at("end w2"));
    expect(results.map((r) => r.status === "done" && r.value)).toEqual(calls.map((call) => call.id));
  });

  it("skips every call after shouldStop turns true (e.g. a rejection)", async () => {
    let rejected = false;
    const ran: string[] = [];
    const results = await runCalls([read("r1"), write("w1"), write("w2"), read("r2")], {
      isReadOnly: (call) => call.readOnly,
      shouldStop: () => rejected,
      run: async (call) => {
        ran.push(call.id);
        if (call.id === "w1") rejected = true;
        return call.id;
      },
    });
    expect(ran).toEqual(["r1", "w1"]);
    expect(results.map((r) => r.status)).toEqual(["done", "done", "skipped", "skipped"]);
  });

  it("skips read-only calls of a batch not yet started when it stops", async () => {
    let stop = false;
    const ran: string[] = [];
    const results = await runCalls([read("a"), read("b"), read("c")], {
      isReadOnly: () => true,
      maxConcurrent: 1,
      shouldStop: () => stop,
      run: async (call) => {
        ran.push(call.id);
        stop = true;
        return call.id;
      },
    });
    expect(ran).toEqual(["a"]);
    expect(results.map((r) => r.status)).toEqual(["done", "skipped", "skipped"]);
  });

  it("keeps at most maxConcurrent read-only calls running", async () => {
    let running = 0;
    let most = 0;
    await runCalls([read("a"), read("b"), read("c"), read("d"), read("e")], {
      isReadOnly: () => true,
      maxConcurrent: 2,
      run: async () => {
        running++;
        most = Math.max(most, running);
        for (let i = 0; i < 5; i++) await Promise.resolve();
        running--;
      },
    });
    expect(most).toBe(2);
  });

  it("turns a throwing run into an error entry and goes on", async () => {
    const boom = new Error("bug");
    const results = await runCalls([write("a"), write("b")], {
      isReadOnly: () => false,
      run: async (call) => {
        if (call.id === "a") throw boom;
        return call.id;
      },
    });
    expect(results).toEqual([
      { status: "error", error: boom },
      { status: "done", value: "b" },
    ]);
  });

  it("handles no calls", async () => {
    expect(await runCalls([], { isReadOnly: () => true, run: async () => 1 })).toEqual([]);
  });
});
