export * from "./command.js";
export * from "./event.js";
export * from "./ui-message.js";
