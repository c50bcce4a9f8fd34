export * from "./checkpoint-commands.js";
export * from "./command.js";
export * from "./event.js";
export * from "./mcp-commands.js";
export * from "./session-commands.js";
export * from "./ui-message.js";
export * from "./usage-format.js";
