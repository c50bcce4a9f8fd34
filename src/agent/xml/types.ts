/**
 * Shapes of the XML tool-call path: a model without native tool calling writes its calls as
 * XML inside its text, and the parser turns that text into blocks.
 */

/**
 * One block of an assistant message. A `partial` block is still being written: it may update
 * the UI, but only a complete (`partial: false`) tool block may be executed.
 */
export type XmlBlock =
  | { type: "text"; text: string; partial: boolean }
  | {
      type: "tool";
      name: string;
      params: Record<string, string>;
      partial: boolean;
      /** The parameter whose value is being written, if any. */
      openParam?: string;
    };

/**
 * What changed since the previous `push`, so a host can update its UI without diffing blocks.
 * `index` is the block's position in `blocks()`. Replaying the events in order rebuilds
 * `blocks()` exactly: a `text_delta` for a new index opens a text block, `param_start` sets the
 * value to "" (a repeated parameter starts over) and makes it the open parameter, `param_end`
 * closes it with its final value.
 */
export type XmlParseEvent =
  | { type: "text_delta"; index: number; text: string }
  /** The text block is complete (a tool call follows, or the message ended). */
  | { type: "text_end"; index: number }
  | { type: "tool_start"; index: number; name: string }
  | { type: "param_start"; index: number; param: string }
  | { type: "param_delta"; index: number; param: string; text: string }
  | { type: "param_end"; index: number; param: string; value: string }
  /** The tool call is complete and may be executed; `params` is a copy of its parameters. */
  | { type: "tool_end"; index: number; name: string; params: Record<string, string> };

export interface XmlToolParserOptions {
  /** Tool name -> its parameter names. Only these tags open tool calls and parameters. */
  tools: ReadonlyMap<string, readonly string[]>;
  /**
   * Tool name -> parameters whose value may contain tag-like text, such as its own closing tag
   * (file contents, diffs). Defaults to `DEFAULT_GREEDY_PARAMS`; pass an empty map for none.
   */
  greedyParams?: ReadonlyMap<string, readonly string[]>;
}

/** Work counters, for tests that check the parser never re-scans what it has read. */
export interface XmlParserStats {
  /** Characters passed to `push`. */
  charsPushed: number;
  /** Character inspections made by the scanner and the trimmers together. */
  charsExamined: number;
}

/**
 * An incremental parser for one assistant message. Each `push` costs time proportional to
 * its chunk (plus a bounded lookahead for a tag cut at the chunk's end), never to the
 * message so far. Contract: `push` and `end` never throw on any text; calling `push` or
 * `end` after `end` throws (a programming error).
 */
export interface XmlToolParser {
  /** Feeds the next piece of the message; returns what changed. */
  push(chunk: string): XmlParseEvent[];
  /** Ends the message: settles held-back text; a tool still open stays partial. */
  end(): XmlParseEvent[];
  /**
   * A snapshot of the blocks so far (fresh objects; the strings are shared). Text held back
   * for lookahead (a possible tag, a possible trailing newline) is not in it until settled.
   */
  blocks(): XmlBlock[];
  stats(): XmlParserStats;
}
