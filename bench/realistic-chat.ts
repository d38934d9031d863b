/** A deterministic generator of realistic, varied everyday chat between a person and an assistant, for benchmarks. */
import { seededRandom } from './seeded-random.js';
import { SUBJECTS, TOPICS } from './chat-pools.js';
import { SLOTS, between, noEcho, noFocus, pick, type Context, type Draft, type Slot, type UserKind } from './chat-slots.js';
import { CHECKLISTS, CLOSERS, CORRECTIONS, CORRECTION_ACKS, FOLLOW_UPS, OPENERS, PREFERENCES, QUESTIONS, RULES, RULE_ACKS, SMALL_TALK, SUGGESTIONS, SUMMARIES, TOPIC_LINES } from './chat-templates.js';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
}

const MIN_WORDS = 30;
const MAX_WORDS = 80;
const MIN_SENTENCES = 2;
const MAX_SENTENCES = 6;
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/** A template split once into literal text around its slots: `literals.length === slots.length + 1`. */
interface Parsed {
  literals: readonly string[];
  slots: readonly Slot[];
}

const SLOT_PATTERN = /\{(\w+)\}/g;
const PARSED = new Map<string, Parsed>();

function parse(template: string): Parsed {
  const cached = PARSED.get(template);
  if (cached !== undefined) return cached;
  const parts = template.split(SLOT_PATTERN);
  const literals = parts.filter((_, index) => index % 2 === 0);
  const slots = parts.filter((_, index) => index % 2 === 1).map((key): Slot => SLOTS[key] ?? (() => `{${key}}`));
  const parsed = { literals, slots };
  PARSED.set(template, parsed);
  return parsed;
}

/** Replaces every `{slot}` in a template with a fresh value drawn from the pools. */
function fill(template: string, ctx: Context): string {
  const { literals, slots } = parse(template);
  let text = literals[0] ?? '';
  for (let index = 0; index < slots.length; index += 1) text += (slots[index]?.(ctx) ?? '') + (literals[index + 1] ?? '');
  return text;
}

// ---------------------------------------------------------------------------
// Message composition
// ---------------------------------------------------------------------------

/** Words in a generated sentence: templates and values are single-spaced, so this is spaces plus one. */
function countWords(text: string): number {
  let words = 1;
  for (let index = text.indexOf(' '); index !== -1; index = text.indexOf(' ', index + 1)) words += 1;
  return words;
}

/** Picks a template not yet used in this message (a few tries, then accepts a repeat). */
function pickFresh(next: () => number, list: readonly string[], used: string[]): string {
  let template = pick(next, list);
  for (let tries = 0; tries < 4 && used.includes(template); tries += 1) template = pick(next, list);
  used.push(template);
  return template;
}

function add(draft: Draft, line: string): void {
  draft.sentences.push(line);
  draft.words += countWords(line);
}

/** Head sentences, then body sentences until the word target is reached, then tail sentences. */
function compose(head: readonly string[], tail: readonly string[], body: () => string, target: number): Draft {
  const draft: Draft = { sentences: [], words: 0 };
  for (const line of head) add(draft, line);
  let tailWords = 0;
  for (const line of tail) tailWords += countWords(line);
  const room = MAX_SENTENCES - tail.length;
  do add(draft, body());
  while (draft.words + tailWords < target && draft.sentences.length < room);
  for (const line of tail) add(draft, line);
  return draft;
}

function isValid(draft: Draft): boolean {
  const { sentences, words } = draft;
  return sentences.length >= MIN_SENTENCES && sentences.length <= MAX_SENTENCES && words >= MIN_WORDS && words <= MAX_WORDS;
}

function wordTarget(next: () => number): number {
  return between(next, 32, 58);
}

function userKind(next: () => number): UserKind | 'preference' {
  const roll = next();
  if (roll < 0.16) return 'correction';
  if (roll < 0.26) return 'preference';
  if (roll < 0.34) return 'rule';
  return 'plain';
}

const SPECIAL_LINES: Record<UserKind | 'preference', readonly string[]> = {
  correction: CORRECTIONS,
  preference: PREFERENCES,
  rule: RULES,
  plain: [],
};

function userAttempt(ctx: Context, kind: UserKind | 'preference'): Draft {
  const { next } = ctx;
  ctx.echo = noEcho();
  const head = next() < 0.2 ? [fill(pick(next, SMALL_TALK), ctx)] : [];
  const tail = kind === 'plain' ? [] : [fill(pick(next, SPECIAL_LINES[kind]), ctx)];
  if (next() < 0.4) tail.push(fill(pick(next, QUESTIONS), ctx));
  const used: string[] = [];
  return compose(head, tail, () => fill(pickFresh(next, TOPIC_LINES[ctx.topic], used), ctx), wordTarget(next));
}

function userMessage(ctx: Context): { text: string; kind: UserKind } {
  const kind = userKind(ctx.next);
  ctx.recording = true;
  let draft = userAttempt(ctx, kind);
  while (!isValid(draft)) draft = userAttempt(ctx, kind);
  ctx.recording = false;
  return { text: draft.sentences.join(' '), kind: kind === 'preference' ? 'rule' : kind };
}

function assistantBody(ctx: Context, used: string[]): string {
  const roll = ctx.next();
  const bank = roll < 0.4 ? SUMMARIES : roll < 0.8 ? SUGGESTIONS : CHECKLISTS;
  return fill(pickFresh(ctx.next, bank, used), ctx);
}

function assistantHead(ctx: Context, kind: UserKind): string[] {
  const { next } = ctx;
  if (kind === 'correction' && next() < 0.8) return [fill(pick(next, CORRECTION_ACKS), ctx)];
  if (kind === 'rule' && next() < 0.8) return [fill(pick(next, RULE_ACKS), ctx)];
  return next() < 0.55 ? [fill(pick(next, OPENERS), ctx)] : [];
}

function assistantTail(ctx: Context): string[] {
  const roll = ctx.next();
  if (roll < 0.35) return [fill(pick(ctx.next, FOLLOW_UPS), ctx)];
  if (roll < 0.5) return [fill(pick(ctx.next, CLOSERS), ctx)];
  return [];
}

function assistantAttempt(ctx: Context, kind: UserKind): Draft {
  const used: string[] = [];
  const head = assistantHead(ctx, kind);
  const tail = assistantTail(ctx);
  return compose(head, tail, () => assistantBody(ctx, used), wordTarget(ctx.next));
}

function assistantMessage(ctx: Context, kind: UserKind): string {
  let draft = assistantAttempt(ctx, kind);
  while (!isValid(draft)) draft = assistantAttempt(ctx, kind);
  return draft.sentences.join(' ');
}

// ---------------------------------------------------------------------------
// Timestamps and the public generator
// ---------------------------------------------------------------------------

/** Next timestamp: 20 s to 10 min later, or about once every 40 messages a morning 1 to 3 days later. */
function advance(next: () => number, previous: number): number {
  if (next() < 1 / 40) {
    const midnight = Math.floor(previous / DAY) * DAY;
    return midnight + between(next, 1, 3) * DAY + 8 * HOUR + between(next, 0, 7200) * SECOND;
  }
  return previous + between(next, 20, 600) * SECOND;
}

const two = (value: number): string => (value < 10 ? `0${value}` : String(value));

/** `YYYY-MM-DDTHH:MM:SSZ`; the date part is only formatted when the day changes. */
function isoFormatter(): (ms: number) => string {
  let day = Number.NaN;
  let prefix = '';
  return (ms) => {
    const midnight = Math.floor(ms / DAY) * DAY;
    if (midnight !== day) {
      day = midnight;
      prefix = new Date(midnight).toISOString().slice(0, 11);
    }
    const seconds = Math.floor((ms - midnight) / SECOND);
    return `${prefix}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}Z`;
  };
}

/** Keeps the topic or (40% of the time) moves to a new one, and picks what this exchange is about. */
function nextSubject(ctx: Context): void {
  if (ctx.next() < 0.4) {
    ctx.topic = TOPICS[Math.floor(ctx.next() * TOPICS.length)] ?? ctx.topic;
    ctx.focus = noFocus();
  }
  ctx.subject = pick(ctx.next, SUBJECTS[ctx.topic]);
}

/**
 * Generates `count` chat messages alternating user and assistant (user first), deterministic for a given `seed`.
 * Each message has 2 to 6 sentences and 30 to 80 words, composed from template banks about everyday life and work
 * (trips, renovations, health, budgets, school, hobbies, pets, family events, projects) with names, places, prices,
 * measures and dates filled in; users sometimes correct themselves, state preferences or rules and ask questions,
 * and the assistant replies with summaries, suggestions and checklists that refer back to what the user said.
 * Timestamps start at `start` and increase by 20 s to 10 min, with a jump of 1 to 3 days roughly every 40 messages.
 */
export function realisticChat(count: number, seed = 1, start = '2025-01-06T09:00:00Z'): ChatMessage[] {
  const next = seededRandom(seed);
  const ctx: Context = { next, topic: TOPICS[Math.floor(next() * TOPICS.length)] ?? 'trip', focus: noFocus(), echo: noEcho(), recording: false, subject: '' };
  const iso = isoFormatter();
  const messages: ChatMessage[] = [];
  let time = Date.parse(start);
  let kind: UserKind = 'plain';
  for (let index = 0; index < count; index += 1) {
    if (index > 0) time = advance(next, time);
    const timestamp = iso(time);
    if (index % 2 === 0) {
      nextSubject(ctx);
      const user = userMessage(ctx);
      kind = user.kind;
      messages.push({ role: 'user', content: user.text, timestamp });
    } else {
      messages.push({ role: 'assistant', content: assistantMessage(ctx, kind), timestamp });
    }
  }
  return messages;
}
