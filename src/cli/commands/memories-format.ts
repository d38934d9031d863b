/** Plain-text views of long-term memories for `strata memories`: tables cut to the terminal, one memory in full. */
import type { LongTermMemory, MemoryEdge, MemoryVersion, RecalledMemory } from '../../memory/long-term-api.js';
import { clip, formatNumber, formatTable, formatTime, plural, type Column } from '../format.js';
import type { CliOutput } from '../io.js';

/** The width tables are cut to when the output is not a terminal. */
const DEFAULT_WIDTH = 100;
/** A shortened value keeps at least this many characters, however narrow the terminal. */
const MIN_VALUE_WIDTH = 20;

/** An edge with the keys of both memories, as `show` prints it (and `--json` gives it). */
export interface KeyedEdge extends MemoryEdge {
  fromKey: string;
  toKey: string;
}

/** A table whose `fit` column (free text) is put on one line and shortened so the rows fit `output`'s width. */
export function fittedTable(output: CliOutput, columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, fit: number): string {
  const width = output.columns ?? DEFAULT_WIDTH;
  const others = columns.reduce(
    (sum, column, index) => (index === fit ? sum : sum + Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)) + 2),
    0,
  );
  const room = Math.max(MIN_VALUE_WIDTH, width - others);
  return formatTable(
    columns,
    rows.map((row) => row.map((cell, index) => (index === fit ? clip(cell, room) : cell))),
  );
}

/** Key, name, value and when it was last changed; with `deprecated`, a column marking the deprecated ones. */
export function memoryTable(output: CliOutput, memories: readonly LongTermMemory[], options: { deprecated: boolean }): string {
  const columns: Column[] = [{ header: 'key' }, { header: 'name' }, { header: 'value' }, { header: 'modified' }];
  if (options.deprecated) columns.push({ header: 'deprecated' });
  return fittedTable(
    output,
    columns,
    memories.map((memory) => [memory.key, memory.name ?? '', memory.value, formatTime(memory.modifiedAt), ...(options.deprecated ? [memory.deprecated ? 'yes' : ''] : [])]),
    2,
  );
}

/** Recalled memories, best first: key, score, how found, value, and why. */
export function recallTable(output: CliOutput, recalled: readonly RecalledMemory[]): string {
  return fittedTable(
    output,
    [{ header: 'key' }, { header: 'score', align: 'right' }, { header: 'path' }, { header: 'value' }, { header: 'why' }],
    recalled.map((entry) => [entry.memory.key, entry.score.toFixed(2), entry.path, entry.memory.value, entry.reason]),
    3,
  );
}

/** Every version, oldest first: its number, when, by whom, why, and the value from then on. */
export function versionTable(output: CliOutput, versions: readonly MemoryVersion[]): string {
  return fittedTable(
    output,
    [{ header: 'version', align: 'right' }, { header: 'at' }, { header: 'by' }, { header: 'reason' }, { header: 'value' }],
    versions.map((version) => [String(version.version), formatTime(version.at), version.by, version.reason, version.deprecated ? `(deprecated) ${version.value}` : version.value]),
    4,
  );
}

export function tagCountTable(counts: ReadonlyArray<{ tag: string; memories: number }>): string {
  return formatTable(
    [{ header: 'tag' }, { header: 'memories', align: 'right' }],
    counts.map((count) => [count.tag, formatNumber(count.memories)]),
  );
}

/** `M1  Mom's birthday is May 4`, with the name and a deprecation mark when there are. */
export function memoryLine(memory: LongTermMemory): string {
  const name = memory.name === null ? '' : ` (${memory.name})`;
  return `${memory.key}${name}  ${memory.value}${memory.deprecated ? '  [deprecated]' : ''}`;
}

export function tagsText(tags: readonly string[]): string {
  return tags.length === 0 ? '(none)' : tags.join(', ');
}

/** `M1 relates-to M2`, and why, when the edge was given a reason of its own. */
export function edgeLine(edge: KeyedEdge): string {
  return `${edge.fromKey} ${edge.type} ${edge.toKey}${edge.reason === 'linked' ? '' : ` (${edge.reason})`}`;
}

/** Where a memory came from: the messages it was drawn from, else who wrote it down. */
function origin(memory: LongTermMemory, first: MemoryVersion | undefined): string[] {
  const made = first === undefined ? '' : ` by ${first.by}${first.reason === 'remembered' ? '' : ` (${first.reason})`}`;
  if (memory.sources.length === 0) return [`  from      no conversation: added${made}`];
  return [
    `  from      ${plural(memory.sources.length, 'session')}, added${made}`,
    ...memory.sources.map((source) => `    session ${source.sessionId}: ${plural(source.messageIds.length, 'message')} ${source.messageIds.join(', ')}`),
  ];
}

/** One memory in full: its fields, tags, edges (with the other memory's key and value) and origin. */
export function memoryDetails(
  memory: LongTermMemory,
  details: { tags: readonly string[]; edges: readonly KeyedEdge[]; others: ReadonlyMap<string, LongTermMemory>; first: MemoryVersion | undefined },
): string {
  const lines = [
    `${memory.key}${memory.name === null ? '' : ` ${memory.name}`}${memory.deprecated ? '  [deprecated]' : ''}`,
    `  value     ${memory.value}`,
    `  version   ${memory.version}`,
    `  created   ${formatTime(memory.createdAt)}`,
    `  modified  ${formatTime(memory.modifiedAt)}`,
    `  tags      ${tagsText(details.tags)}`,
    ...origin(memory, details.first),
    `  id        ${memory.id}`,
  ];
  if (details.edges.length > 0) {
    lines.push('', `${plural(details.edges.length, 'edge')}:`);
    for (const edge of details.edges) {
      const other = details.others.get(edge.fromId === memory.id ? edge.toId : edge.fromId);
      lines.push(`  ${edgeLine(edge)}${other === undefined ? '' : `  "${clip(other.value, 60)}"`}`);
    }
  }
  return lines.join('\n');
}
