import type { XmlToolParserOptions } from "./types.js";

/**
 * The tags the parser recognises, as tries walked one character at a time, so a tag cut
 * across chunks costs nothing extra and a mismatch is known at the first wrong character.
 */

/** What a complete tag means in the trie it was found in. */
export type TagMatch =
  | { kind: "tool-open"; name: string }
  | { kind: "param-open"; name: string }
  | { kind: "param-close" }
  | { kind: "tool-close" };

export interface TagTrieNode {
  readonly next: Map<number, TagTrieNode>;
  /** Set on the node that ends a tag. No tag is a prefix of another (all end with `>`). */
  match?: TagMatch;
}

export interface ParamGrammar {
  name: string;
  greedy: boolean;
  /** Tags that may end the value: `</name>`. */
  inValue: TagTrieNode;
  /**
   * Greedy only: tags looked for after a tentative `</name>`: another `</name>`, the tool's
   * closing tag, and the other parameters' opening tags.
   */
  afterClose: TagTrieNode;
}

export interface ToolGrammar {
  name: string;
  /** Tags between parameters: each parameter's opening tag and `</tool>`. */
  body: TagTrieNode;
  params: Map<string, ParamGrammar>;
}

export interface XmlGrammar {
  /** Tags in plain text: each tool's opening tag. */
  text: TagTrieNode;
  tools: Map<string, ToolGrammar>;
}

/** Greedy parameters of the built-in tools: values that are file contents or diffs. */
export const DEFAULT_GREEDY_PARAMS: ReadonlyMap<string, readonly string[]> = new Map([
  ["write_to_file", ["content"]],
  ["replace_in_file", ["diff"]],
]);

const LT = 60; // "<"

function createTrie(entries: ReadonlyArray<readonly [string, TagMatch]>): TagTrieNode {
  const root: TagTrieNode = { next: new Map() };
  for (const [tag, match] of entries) {
    let node = root;
    for (let i = 0; i < tag.length; i++) {
      const code = tag.charCodeAt(i);
      let child = node.next.get(code);
      if (!child) {
        child = { next: new Map() };
        node.next.set(code, child);
      }
      node = child;
    }
    node.match = match;
  }
  return root;
}

/** The node after `<`, where every tag walk starts; undefined when no tag is possible. */
export function afterLessThan(root: TagTrieNode): TagTrieNode | undefined {
  return root.next.get(LT);
}

/** Tag names must be usable inside `<...>`; `__proto__` would corrupt a params record. */
function checkName(name: string, what: string): void {
  if (name === "" || /[\s<>/]/.test(name) || name === "__proto__")
    throw new Error(`Invalid XML ${what} name: ${JSON.stringify(name)}`);
}

/** Builds the tries. Throws when a tool or parameter name cannot be a tag name. */
export function createXmlGrammar(options: XmlToolParserOptions): XmlGrammar {
  const greedyParams = options.greedyParams ?? DEFAULT_GREEDY_PARAMS;
  const tools = new Map<string, ToolGrammar>();
  for (const [toolName, paramNames] of options.tools) {
    checkName(toolName, "tool");
    const names = [...new Set(paramNames)];
    for (const name of names) checkName(name, "parameter");
    const greedy = new Set(greedyParams.get(toolName) ?? []);
    const toolClose: readonly [string, TagMatch] = [`</${toolName}>`, { kind: "tool-close" }];
    const opens = names.map(
      (name) => [`<${name}>`, { kind: "param-open", name }] as const satisfies readonly [string, TagMatch],
    );
    const params = new Map<string, ParamGrammar>();
    for (const name of names) {
      const close: readonly [string, TagMatch] = [`</${name}>`, { kind: "param-close" }];
      params.set(name, {
        name,
        greedy: greedy.has(name),
        inValue: createTrie([close]),
        afterClose: createTrie([close, toolClose, ...opens.filter(([, match]) => match.name !== name)]),
      });
    }
    tools.set(toolName, { name: toolName, body: createTrie([...opens, toolClose]), params });
  }
  const text = createTrie(
    [...tools.keys()].map((name) => [`<${name}>`, { kind: "tool-open", name }] as const),
  );
  return { text, tools };
}
