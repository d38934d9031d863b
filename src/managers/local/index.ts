export { createLocalMemoryManager } from './local-memory-manager.js';
export type { LocalManagerSettings } from './settings.js';
