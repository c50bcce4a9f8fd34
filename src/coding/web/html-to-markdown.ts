import type TurndownService from "turndown";

/** Elements whose content is never worth reading: code, styling, navigation, embedded media. */
const DROPPED = [
  "script",
  "style",
  "noscript",
  "template",
  "nav",
  "iframe",
  "svg",
  "canvas",
  "head",
  "title",
] as const;

let converter: TurndownService | undefined;

/** HTML as Markdown (ATX headings, fenced code), without scripts, styles and navigation. */
export async function htmlToMarkdown(html: string): Promise<string> {
  if (!converter) {
    // Loaded on first use: the HTML parser is large and most tasks never fetch a page.
    const { default: Turndown } = await import("turndown");
    converter = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
    converter.remove([...DROPPED]);
  }
  return converter
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
