import { doubtNote, factDoubts } from '../core/fact-doubts.js';
import { codeFence } from '../core/text.js';
import { FACT_KINDS, type Artifact, type Fact, type FactEvent, type Message, type Session, type TurnSummary } from '../core/types.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type SessionExport } from './export-schema.js';
import { plural } from '../core/counted.js';

export interface SessionSnapshot {
  session: Session;
  messages: Message[];
  turns: TurnSummary[];
  facts: Fact[];
  factEvents: FactEvent[];
  artifacts: Artifact[];
}

/** The complete JSON export of a session: messages with tiers, turn log, facts with events, artifacts. */
export function toSessionExport(snapshot: SessionSnapshot, options: { exportedAt: string; tokenizer: string }): SessionExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: options.exportedAt,
    tokenizer: options.tokenizer,
    ...snapshot,
  };
}

const KIND_TITLES: Readonly<Record<Fact['kind'], string>> = {
  constraint: 'Constraints',
  exception: 'Exceptions (pinned)',
  goal: 'Goals',
  preference: 'Preferences',
  fact: 'Facts',
};

function cell(text: string): string {
  return text.replace(/\|/gu, '\\|').replace(/\s*\n\s*/gu, ' ');
}

/** A readable Markdown export: the memory first, then the turn log, artifacts and the transcript. */
export function toMarkdown(snapshot: SessionSnapshot): string {
  const { session } = snapshot;
  const lines: string[] = [
    `# ${session.title}`,
    '',
    `Session \`${session.id}\` · created ${session.createdAt} · updated ${session.updatedAt} · ${plural(session.turnCount, 'turn')} · ${plural(session.messageCount, 'message')} · ${plural(session.tokenCount, 'token')}`,
    '',
  ];
  if (session.instructions !== '') lines.push('## Instructions', '', session.instructions, '');
  lines.push('## Memory', '');
  if (snapshot.facts.length === 0) lines.push('_No facts recorded._', '');
  const { supersededBy } = factDoubts(snapshot.facts);
  for (const kind of FACT_KINDS) {
    const facts = snapshot.facts.filter((fact) => fact.kind === kind);
    if (facts.length === 0) continue;
    lines.push(`### ${KIND_TITLES[kind]}`, '');
    for (const fact of facts) lines.push(`- ${fact.text} _(turn ${fact.updatedTurn})_${doubtNote(supersededBy.get(fact.id))}`);
    lines.push('');
  }
  const changes = snapshot.factEvents.filter((event) => event.op !== 'add');
  if (changes.length > 0) {
    lines.push('### Changes', '');
    for (const event of changes) {
      const change = event.op === 'update' ? `${event.oldText ?? ''} → ${event.newText ?? ''}` : (event.newText ?? event.oldText ?? event.key);
      lines.push(`- turn ${event.turn}, ${event.op} by ${event.actor}: ${change} (${event.reason})`);
    }
    lines.push('');
  }
  lines.push('## Turn log', '', '| turn | user | assistant | depth | status |', '|---:|---|---|---|---|');
  for (const turn of snapshot.turns) {
    lines.push(`| ${turn.turn} | ${cell(turn.userSummary)} | ${cell(turn.assistantSummary)} | ${turn.depth} | ${turn.status} |`);
  }
  lines.push('');
  if (snapshot.artifacts.length > 0) {
    lines.push('## Artifacts', '');
    for (const artifact of snapshot.artifacts) {
      lines.push(`### ${artifact.name}${artifact.language === null ? '' : ` (${artifact.language})`}`, '');
      for (const version of artifact.versions) {
        const ticks = codeFence(version.content);
        lines.push(`Version ${version.version}, turn ${version.turn}:`, '', `${ticks}${artifact.language ?? ''}`, version.content, ticks, '');
      }
    }
  }
  lines.push('## Transcript', '');
  let turn = 0;
  for (const message of snapshot.messages) {
    if (message.turn !== turn) {
      turn = message.turn;
      lines.push(`### Turn ${turn}`, '');
    }
    const who = message.speaker === null ? message.role : `${message.speaker} (${message.role})`;
    const answers = message.toolCallId === undefined ? '' : ` answering \`${message.toolCallId}\``;
    lines.push(`**${who}**${answers} · ${message.sentAt ?? 'time not known'}`, '');
    if (message.content !== '') lines.push(message.content, '');
    for (const call of message.toolCalls ?? []) lines.push(`- calls \`${call.name}\` (\`${call.id}\`) with \`${call.arguments}\``);
    if (message.toolCalls !== undefined) lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
