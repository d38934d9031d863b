export { createModelMemoryManager, type ModelMemoryManager } from './model-memory-manager.js';
export type { ModelManagerSettings } from './settings.js';
export type { ModelManagerStats } from './model-stats.js';
export type { ConsolidateOptions, ConsolidationChange, ConsolidationProposal, ConsolidationResult } from '../consolidation.js';
export { validateConsolidation, type ConsolidationValidation, type ValidateConsolidationOptions } from './validate-consolidation.js';
