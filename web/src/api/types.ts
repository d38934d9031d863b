/**
 * The REST API's bodies, as the server's own schemas describe them: one definition for both faces, so a
 * change to an answer's shape fails the web app's type-check instead of its users.
 */
import type { z } from 'zod';
import type {
  ArtifactSchema,
  ContextPackageSchema,
  FactEventSchema,
  FactSchema,
  MessageSchema,
  SessionSchema,
  StatsSchema,
  TurnSummarySchema,
} from '../../../src/server/domain-schemas.js';
import type { RetentionRun } from '../../../src/eval/run-retention.js';
import type { ShippedExampleSchema } from '../../../src/server/eval-schemas.js';
import type { ChatModelSchema } from '../../../src/server/routes/chat-routes.js';

export type Session = z.infer<typeof SessionSchema>;
export type Fact = z.infer<typeof FactSchema>;
export type FactEvent = z.infer<typeof FactEventSchema>;
export type FactKind = Fact['kind'];
export type Message = z.infer<typeof MessageSchema>;
export type TurnSummary = z.infer<typeof TurnSummarySchema>;
export type Artifact = z.infer<typeof ArtifactSchema>;
export type ContextPackage = z.infer<typeof ContextPackageSchema>;
export type ContextItem = ContextPackage['sections'][number]['items'][number];
export type Stats = z.infer<typeof StatsSchema>;
export type { RetentionRun };
export type ConversationRetention = RetentionRun['conversations'][number];

/** `GET /api/chat-model`: the model `chat` answers with, or what to set to have one. */
export type ChatModelStatus = z.infer<typeof ChatModelSchema>;

/** One key-fact conversation shipped with the package (`GET /api/eval/examples`). */
export type EvalExample = z.infer<typeof ShippedExampleSchema>;

/** What a streamed chat turn reports once its reply is stored (the `stored` event; SSE payloads have no schema). */
export interface StoredTurn {
  turn: number;
  messageIds: string[];
  contextTokens: number;
  budget: number;
  staleMemory: boolean;
}

/** How phase 2 (memory work) ended for a turn. */
export interface MemoryOutcome {
  turn: number;
  status: string;
  problem: string | null;
}
