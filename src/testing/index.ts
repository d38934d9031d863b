/**
 * `strata-memory/testing`: doubles for testing an app built on Strata without a model or a network — a
 * chat model that answers from a script and a memory manager that proposes scripted facts.
 */
export { createScriptedChatModel, type ScriptedCall, type ScriptedChatModel, type ScriptedChatModelOptions, type ScriptedReply } from './scripted-chat-model.js';
export { createScriptedMemoryManager, type ScriptedMemoryManagerOptions, type ScriptedTurn } from './scripted-memory-manager.js';
