export { createModelMemoryManager, type ModelMemoryManager } from './model-memory-manager.js';
export type { ModelMemoryManagerSettings } from './settings.js';
export type { ModelManagerStats } from './model-stats.js';
export type { ConsolidateOptions, ConsolidationResult } from './consolidate-facts.js';
export type { ConsolidationProposal } from './consolidation-schema.js';
export { validateConsolidation, type ConsolidationChange, type ConsolidationValidation, type ValidateConsolidationOptions } from './validate-consolidation.js';
