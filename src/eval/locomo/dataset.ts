/**
 * The LoCoMo dataset (Maharana et al., 2024): long multi-session conversations with QA items whose
 * evidence names dialogue ids (`D<session>:<turn>`). This module validates a LoCoMo JSON file and turns
 * it into plain typed data, tolerating the known quirks of the published files:
 *
 * - `session_N_date_time` keys with no `session_N` (more date-times than sessions);
 * - answers that are numbers (`"answer": 2022`), and adversarial items (category 5) that carry
 *   `adversarial_answer` instead of (or beside) `answer`;
 * - evidence strings holding several ids (`"D3:4; D5:6"`), a stray colon (`"D:7:8"`), or ids that
 *   name no dialogue turn (`"D"`, or a turn past the end of its session): split, repaired or dropped, each
 *   with a warning;
 * - observation evidence given as one id or a list of ids.
 *
 * The data is CC BY-NC 4.0: read it at run time, never copy it into the project.
 */
import { z } from 'zod';
import { StrataError } from '../../core/errors.js';

/** LoCoMo-paper category numbering. */
export type LocomoCategory = 1 | 2 | 3 | 4 | 5;

export const CATEGORY_NAMES: Readonly<Record<LocomoCategory, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

/** One dialogue message of a LoCoMo conversation (a "turn" in LoCoMo's terms). */
export interface LocomoDialogue {
  diaId: string;
  speaker: string;
  /** The message text as written (may be empty when the message is only an image). */
  text: string;
  /** BLIP caption of a shared image, when the message shares one. */
  imageCaption: string | null;
}

export interface LocomoSession {
  /** N of `session_N`. */
  index: number;
  /** `session_N_date_time` as written, e.g. "1:56 pm on 8 May, 2023". */
  dateTime: string;
  /** The same time as ISO-8601 (read as UTC). */
  timestamp: string;
  dialogues: LocomoDialogue[];
}

export interface LocomoQa {
  /** Position in the sample's `qa` array (0-based), as in the audit's `locomo_<sample>_qa<index>` ids. */
  index: number;
  question: string;
  /** The gold answer as text; null when the item has none (most adversarial items). */
  answer: string | null;
  category: LocomoCategory;
  /** Evidence dialogue ids, repaired and restricted to ids of the conversation. */
  evidence: string[];
}

/** An LLM-written observation of a session, with the dialogue ids it rests on. */
export interface LocomoObservation {
  session: number;
  speaker: string;
  text: string;
  evidence: string[];
}

export interface LocomoSessionSummary {
  session: number;
  text: string;
}

export interface LocomoSample {
  sampleId: string;
  /** Position in the file (0-based). */
  index: number;
  speakerA: string;
  speakerB: string;
  sessions: LocomoSession[];
  qa: LocomoQa[];
  observations: LocomoObservation[];
  sessionSummaries: LocomoSessionSummary[];
}

export interface LocomoDataset {
  samples: LocomoSample[];
  /** Quirks that were repaired or dropped, one line each, naming where. */
  warnings: string[];
}

const dialogueSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().min(1),
  text: z.string(),
  img_url: z.union([z.string(), z.array(z.string())]).optional(),
  blip_caption: z.string().nullish(),
});

const qaSchema = z.looseObject({
  question: z.string().min(1),
  answer: z.union([z.string(), z.number(), z.null()]).optional(),
  adversarial_answer: z.union([z.string(), z.number(), z.null()]).optional(),
  evidence: z.array(z.string()),
  category: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)], {
    error: 'category must be 1–5 (LoCoMo-paper numbering)',
  }),
});

const observationEntrySchema = z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]).rest(z.unknown());

const sampleSchema = z.looseObject({
  sample_id: z.union([z.string(), z.number()]).optional(),
  conversation: z.looseObject({ speaker_a: z.string().min(1), speaker_b: z.string().min(1) }),
  qa: z.array(z.unknown()),
  observation: z.record(z.string(), z.record(z.string(), z.array(z.unknown()))).optional(),
  session_summary: z.record(z.string(), z.string()).optional(),
});

const MONTHS: Readonly<Record<string, number>> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};

const DATE_TIME = /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$/iu;

/**
 * Parse LoCoMo's session time ("1:56 pm on 8 May, 2023") into ISO-8601, read as UTC.
 * Throws INVALID_INPUT naming the text when it is not in that form or names no real day.
 */
export function parseLocomoDateTime(text: string): string {
  const match = DATE_TIME.exec(text);
  const fail = (): never => {
    throw new StrataError('INVALID_INPUT', `"${text}" is not a LoCoMo session time; expected the form "1:56 pm on 8 May, 2023".`);
  };
  if (match === null) return fail();
  const [, hourText, minuteText, half, dayText, monthText, yearText] = match;
  const hour12 = Number(hourText);
  const minute = Number(minuteText);
  const day = Number(dayText);
  const year = Number(yearText);
  const month = MONTHS[(monthText ?? '').toLowerCase()];
  if (month === undefined || hour12 < 1 || hour12 > 12 || minute > 59) return fail();
  const hour = (hour12 % 12) + (half?.toLowerCase() === 'p' ? 12 : 0);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return fail();
  return date.toISOString();
}

const DIA_ID = /^D:?(\d+):(\d+)$/u;

/** Split and repair one evidence string: `"D3:4; D5:6"` gives two ids, `"D:7:8"` gives `"D7:8"`; junk gives none. */
export function splitEvidence(raw: string): { ids: string[]; invalid: string[] } {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const part of raw.split(/[;,\s]+/u)) {
    if (part === '') continue;
    const match = DIA_ID.exec(part);
    if (match === null) invalid.push(part);
    else ids.push(`D${Number(match[1])}:${Number(match[2])}`);
  }
  return { ids, invalid };
}

export function invalidInput(message: string): StrataError {
  return new StrataError('INVALID_INPUT', message);
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidInput(`${where}${issue === undefined ? '' : issuePath(issue.path)}: ${issue?.message ?? 'invalid'}.`);
}

function answerText(value: string | number | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** Validate one sample and convert it; `warnings` collects the quirks repaired on the way. */
export function parseLocomoSample(value: unknown, index: number, source: string, warnings: string[]): LocomoSample {
  const raw = parseWith(sampleSchema, value, `${source}[${index}]`);
  const sampleId = raw.sample_id === undefined ? `sample-${index}` : String(raw.sample_id);
  const where = `${source} sample ${sampleId} (index ${index})`;
  const conversation = raw.conversation as Record<string, unknown> & { speaker_a: string; speaker_b: string };
  const speakerA = conversation.speaker_a;
  const speakerB = conversation.speaker_b;
  if (speakerA === speakerB) throw invalidInput(`${where}: speaker_a and speaker_b are both "${speakerA}"; the replay needs two speakers.`);

  const sessions: LocomoSession[] = [];
  const known = new Set<string>();
  const sessionKeys = Object.keys(conversation)
    .map((key) => ({ key, match: /^session_(\d+)$/u.exec(key) }))
    .filter((entry): entry is { key: string; match: RegExpExecArray } => entry.match !== null)
    .map((entry) => ({ key: entry.key, number: Number(entry.match[1]) }))
    .sort((a, b) => a.number - b.number);
  for (const { key, number } of sessionKeys) {
    const list = parseWith(z.array(dialogueSchema), conversation[key], `${where}: conversation.${key}`);
    if (list.length === 0) continue;
    const dateKey = `${key}_date_time`;
    const dateTime = conversation[dateKey];
    if (typeof dateTime !== 'string') throw invalidInput(`${where}: conversation.${dateKey} is missing; every session needs its time.`);
    let timestamp: string;
    try {
      timestamp = parseLocomoDateTime(dateTime);
    } catch (error) {
      throw invalidInput(`${where}: conversation.${dateKey}: ${(error as Error).message}`);
    }
    const dialogues = list.map((entry, position): LocomoDialogue => {
      if (entry.speaker !== speakerA && entry.speaker !== speakerB) {
        throw invalidInput(`${where}: conversation.${key}[${position}].speaker "${entry.speaker}" is neither speaker_a "${speakerA}" nor speaker_b "${speakerB}".`);
      }
      const { ids } = splitEvidence(entry.dia_id);
      const diaId = ids.length === 1 ? (ids[0] ?? entry.dia_id) : entry.dia_id;
      if (known.has(diaId)) throw invalidInput(`${where}: conversation.${key}[${position}].dia_id "${entry.dia_id}" appears twice.`);
      known.add(diaId);
      const caption = entry.blip_caption?.trim() ?? '';
      if (entry.text.trim() === '' && caption === '') {
        throw invalidInput(`${where}: conversation.${key}[${position}] (${entry.dia_id}) has neither text nor an image caption.`);
      }
      return { diaId, speaker: entry.speaker, text: entry.text, imageCaption: caption === '' ? null : caption };
    });
    sessions.push({ index: number, dateTime, timestamp, dialogues });
  }
  if (sessions.length === 0) throw invalidInput(`${where}: the conversation has no session_N with dialogue.`);

  /** Evidence strings → known dialogue ids, with a warning for every repair or drop. */
  const evidenceIds = (values: readonly string[], label: string): string[] => {
    const ids: string[] = [];
    for (const value of values) {
      const split = splitEvidence(value);
      for (const bad of split.invalid) warnings.push(`${where} ${label}: evidence "${bad}" is not a dialogue id; dropped.`);
      if (split.ids.length > 1) warnings.push(`${where} ${label}: evidence "${value}" holds ${split.ids.length} ids; split.`);
      else if (split.ids.length === 1 && split.ids[0] !== value) warnings.push(`${where} ${label}: evidence "${value}" read as "${split.ids[0]}".`);
      for (const id of split.ids) {
        if (!known.has(id)) warnings.push(`${where} ${label}: evidence "${id}" names no dialogue of the conversation; dropped.`);
        else if (!ids.includes(id)) ids.push(id);
      }
    }
    return ids;
  };

  const qa = raw.qa.map((item, position): LocomoQa => {
    const parsed = parseWith(qaSchema, item, `${where}: qa[${position}]`);
    return {
      index: position,
      question: parsed.question.trim(),
      answer: answerText(parsed.answer),
      category: parsed.category,
      evidence: evidenceIds(parsed.evidence, `qa[${position}]`),
    };
  });

  const observations: LocomoObservation[] = [];
  for (const [key, bySpeaker] of Object.entries(raw.observation ?? {})) {
    const match = /^session_(\d+)_observation$/u.exec(key);
    if (match === null) {
      warnings.push(`${where}: observation.${key} is not session_N_observation; ignored.`);
      continue;
    }
    for (const [speaker, entries] of Object.entries(bySpeaker)) {
      entries.forEach((entry, position) => {
        const label = `observation.${key}.${speaker}[${position}]`;
        const [text, evidence] = parseWith(observationEntrySchema, entry, `${where}: ${label}`);
        if (text.trim() === '') return;
        observations.push({
          session: Number(match[1]),
          speaker,
          text: text.trim(),
          evidence: evidenceIds(typeof evidence === 'string' ? [evidence] : evidence, label),
        });
      });
    }
  }

  const sessionSummaries: LocomoSessionSummary[] = [];
  for (const [key, text] of Object.entries(raw.session_summary ?? {})) {
    const match = /^session_(\d+)_summary$/u.exec(key);
    if (match === null) {
      warnings.push(`${where}: session_summary.${key} is not session_N_summary; ignored.`);
      continue;
    }
    if (text.trim() !== '') sessionSummaries.push({ session: Number(match[1]), text: text.trim() });
  }
  sessionSummaries.sort((a, b) => a.session - b.session);

  return { sampleId, index, speakerA, speakerB, sessions, qa, observations, sessionSummaries };
}

export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidInput(`${source} is not valid JSON: ${(error as Error).message}.`);
  }
}

/** Validate a LoCoMo file's content (parsed JSON or its text): an array of samples. */
export function parseLocomo(value: unknown, source = 'the LoCoMo file'): LocomoDataset {
  const data = typeof value === 'string' ? parseJson(value, source) : value;
  if (!Array.isArray(data)) {
    throw invalidInput(`${source} is not a LoCoMo file: expected an array of samples with "conversation" and "qa".`);
  }
  if (data.length === 0) throw invalidInput(`${source} holds no samples.`);
  const warnings: string[] = [];
  const samples = data.map((sample, index) => parseLocomoSample(sample, index, source, warnings));
  const ids = new Set<string>();
  for (const sample of samples) {
    if (ids.has(sample.sampleId)) throw invalidInput(`${source}: sample_id "${sample.sampleId}" appears twice.`);
    ids.add(sample.sampleId);
  }
  return { samples, warnings };
}

/** Every dialogue of a sample in conversation order. */
export function dialoguesOf(sample: LocomoSample): LocomoDialogue[] {
  return sample.sessions.flatMap((session) => session.dialogues);
}
