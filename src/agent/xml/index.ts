/**
 * The XML tool-call path, for models without native tool calling: the model writes
 * `<tool><param>value</param></tool>` in its text, and these functions turn that text into
 * blocks, incrementally as it streams.
 *
 * Rules, identical whether a message is parsed whole or in any chunks:
 * - Only a known tool's `<name>` opens a call, and only that tool's `<param>` tags open
 *   parameters. Any other tag is literal: text outside calls, value text inside a parameter.
 *   Between parameters, anything but a tag of the tool (whitespace, prose, unknown tags) is
 *   ignored.
 * - A value loses one leading and one trailing newline (`\n` or `\r\n`), nothing else. A
 *   non-greedy value ends at the first `</param>`; a greedy one (file contents, diffs) at the
 *   last `</param>` before `</tool>`, unless whitespace and another parameter's opening tag
 *   follow a `</param>` first.
 * - Text is verbatim except next to a call: the blank lines between a call and the text are
 *   dropped (the text before a call loses its trailing whitespace from the first line break
 *   on, the text after it its leading whitespace up to the last line break). Text that is
 *   only whitespace makes no block.
 * - A call still open at the end stays `partial` (its open parameter keeps what it had);
 *   a `tool_end` event marks every complete call, which alone may be executed.
 */
export { coerceXmlParams, coerceXmlValue } from "./coerce.js";
export { createXmlToolParser, parseXmlToolMessage } from "./streaming-parser.js";
export type {
  XmlBlock,
  XmlParseEvent,
  XmlParserStats,
  XmlToolParser,
  XmlToolParserOptions,
} from "./types.js";
export { DEFAULT_GREEDY_PARAMS } from "./xml-grammar.js";
