export * from "./checkpoint-commands.js";
export * from "./command.js";
export * from "./event.js";
export * from "./ui-message.js";
