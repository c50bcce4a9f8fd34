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
