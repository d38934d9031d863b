export { createRecordedMemoryManager } from './recorded-memory-manager.js';
export type {
  RecordedFact,
  RecordedMemoryManager,
  RecordedMemoryManagerSettings,
  RecordedMessage,
  RecordedTurn,
} from './recorded-memory-manager.js';
