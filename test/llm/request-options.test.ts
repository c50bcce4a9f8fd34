/** What the request converters make of a model config's reasoning settings and quirks. */
import { describe, expect, it } from "vitest";
import { toAnthropicRequest } from "../../src/llm/anthropic-request.js";
import { toOpenAiChatRequest } from "../../src/llm/openai-chat-request.js";
import type { LlmRequest, ModelConfig } from "../../src/llm/types.js";

const request: LlmRequest = {
  system: "system",
  messages: [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "", redacted: "opaque-data" },
        { type: "reasoning", text: "think", signature: "sig" },
        { type: "tool_call", id: "c1", name: "read", input: { path: "a" } },
      ],
    },
    {
      role: "user",
      content: [{ type: "tool_result", callId: "c1", content: [{ type: "text", text: "ok" }] }],
    },
  ],
  tools: [{ name: "read", description: "Reads.", inputSchema: { type: "object", properties: {} } }],
  temperature: 0.2,
};

const config = (extra: Partial<ModelConfig>): ModelConfig => ({
  provider: "p",
  wireFormat: "anthropic-messages",
  model: "m",
  apiKey: "k",
  ...extra,
});

describe("Anthropic", () => {
  it("turns a thinking budget into extended thinking, with room for the answer and no temperature", () => {
    const body = toAnthropicRequest(
      request,
      config({ reasoning: { budgetTokens: 16_000 }, maxOutputTokens: 8000 }),
    );
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 16_000 });
    expect(body.max_tokens).toBeGreaterThan(16_000);
    expect((body as any).temperature).toBeUndefined();
  });

  it("leaves the budget to adaptive-thinking models, passing the effort, and no temperature when sampling is fixed", () => {
    const body = toAnthropicRequest(
      request,
      config({
        reasoning: { budgetTokens: 16_000, effort: "high" },
        modelInfo: { thinking: "adaptive", fixedSampling: true },
      }),
    ) as any;
    expect(body.thinking).toBeUndefined();
    expect(body.output_config).toEqual({ effort: "high" });
    expect(body.temperature).toBeUndefined();
    expect(body.max_tokens).toBe(8192);
  });

  it("sends redacted and signed thinking back as they came", () => {
    const body = toAnthropicRequest(request, config({}));
    expect(body.messages[1]!.content).toEqual([
      { type: "redacted_thinking", data: "opaque-data" },
      { type: "thinking", thinking: "think", signature: "sig" },
      { type: "tool_use", id: "c1", name: "read", input: { path: "a" } },
    ]);
    expect(body.thinking).toBeUndefined();
    expect((body as any).temperature).toBe(0.2);
  });

  it("marks the tools, the system prompt and the last two user messages for caching", () => {
    const body = toAnthropicRequest(request, config({}));
    const marked = JSON.stringify(body).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(4);
    expect((body.tools![0] as any).cache_control).toEqual({ type: "ephemeral" });
    expect((body.messages[0]!.content as any[]).at(-1).cache_control).toBeDefined();
    expect((body.messages[2]!.content as any[]).at(-1).cache_control).toBeDefined();
    // The shared converted history is not changed by the marks.
    const again = toAnthropicRequest({ ...request, messages: request.messages.slice(0, 1) }, config({}));
    expect(JSON.stringify(again).match(/cache_control/g)).toHaveLength(3);
  });
});

describe("OpenAI Chat Completions quirks", () => {
  const chat = (extra: Partial<ModelConfig>) =>
    toOpenAiChatRequest(request, config({ wireFormat: "openai-chat", maxOutputTokens: 500, ...extra }));

  it("by default asks for usage and names the reply limit max_completion_tokens", () => {
    const body = chat({}) as any;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.max_completion_tokens).toBe(500);
    expect(body.max_tokens).toBeUndefined();
    expect(body.parallel_tool_calls).toBeUndefined();
  });

  it("follows the preset's quirks and reasoning effort", () => {
    const body = chat({
      quirks: { maxTokensField: "max_tokens", noStreamUsage: true, noParallelToolCalls: true },
      reasoning: { effort: "high" },
    }) as any;
    expect(body.max_tokens).toBe(500);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.stream_options).toBeUndefined();
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.reasoning_effort).toBe("high");
  });
});
