/**
 * How the fake model server speaks one wire format: which requests are its own, how a scripted
 * turn is framed on the wire, and how an error is shaped. One codec a format; the server holds
 * no format-specific code.
 */
import type { ScriptedTurn, TurnContext, WireFormatName } from "./fake-model-script.js";

export interface ErrorResponse {
  body: unknown;
  headers?: Record<string, string>;
}

export interface WireCodec {
  readonly format: WireFormatName;
  /** Content type of a streamed reply. */
  readonly streamContentType: string;
  /** True when a POST to this path (query string removed) belongs to this format. */
  matches(path: string): boolean;
  /** The model the request names (in the body or the path). */
  modelOf(path: string, body: any): string | undefined;
  /** True when the request asks for a streamed reply (formats say so in the body or the path). */
  isStreaming(path: string, query: URLSearchParams, body: any): boolean;
  /** The frames of one streamed reply; each frame is written as one chunk. */
  frames(turn: ScriptedTurn, context: TurnContext, body: any): Array<string | Uint8Array>;
  /** A provider-shaped error body (and headers) for an HTTP error status. */
  errorResponse(status: number, message: string, requestNumber: number): ErrorResponse;
}
