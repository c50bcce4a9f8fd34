/** Every wire format the fake model server speaks. A new format adds its codec here. */
import { anthropicCodec } from "./anthropic-sse.js";
import { bedrockConverseCodec } from "./bedrock-eventstream.js";
import { geminiCodec } from "./gemini-sse.js";
import { openAiChatCodec } from "./openai-chat-sse.js";
import { openAiResponsesCodec } from "./openai-responses-sse.js";
import type { WireCodec } from "./wire-codec.js";

export const WIRE_CODECS: readonly WireCodec[] = [
  anthropicCodec,
  bedrockConverseCodec,
  geminiCodec,
  openAiChatCodec,
  openAiResponsesCodec,
];
