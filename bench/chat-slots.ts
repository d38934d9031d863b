/** Slots of the realistic chat generator: how each `{placeholder}` of a template gets its value. */
import { ANIMALS, BILLS, BODY_PARTS, CLASSES, CLINICS, CURRENCIES, DAYS, EVENTS, FEW, FUTURE_PHRASES, HOBBIES, MATERIALS, MONTHS, NAMES, PAST_PHRASES, PETS, PLACES, PROJECTS, RECENT, RELATIONS, ROOMS, TEAMS, UPCOMING, VENUES, type Topic } from './chat-pools.js';

export type UserKind = 'plain' | 'correction' | 'rule';

/** Values the user just mentioned ('' when none), so the assistant can refer back to them. */
export interface Echo {
  name: string;
  place: string;
  money: string;
  when: string;
}

/** Things that stay the same while the conversation stays on one topic ('' until first used). */
export type FocusKey = 'currency' | 'room' | 'clinic' | 'class' | 'hobby' | 'pet' | 'animal' | 'event' | 'project';

export interface Context {
  next: () => number;
  topic: Topic;
  focus: Record<FocusKey, string>;
  echo: Echo;
  recording: boolean;
  /** What the current exchange is about, shared by the user message and the reply. */
  subject: string;
}

export type Slot = (ctx: Context) => string;

export interface Draft {
  sentences: string[];
  words: number;
}

export function pick(next: () => number, list: readonly string[]): string {
  return list[Math.floor(next() * list.length)] ?? '';
}

export function between(next: () => number, low: number, high: number): number {
  return low + Math.floor(next() * (high - low + 1));
}

function withCommas(value: number): string {
  const digits = String(value);
  return digits.length <= 3 ? digits : `${withCommas(Math.floor(value / 1000))},${digits.slice(-3)}`;
}

function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
  return `${day}${suffix}`;
}

function decimal(next: () => number, low: number, high: number): string {
  const tenths = between(next, Math.round(low * 10), Math.round(high * 10));
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}

function amount(next: () => number): string {
  const roll = next();
  if (roll < 0.35) return String(between(next, 2, 60) * 5);
  if (roll < 0.7) return withCommas(between(next, 10, 200) * 10);
  if (roll < 0.9) return withCommas(between(next, 20, 198) * 50);
  return (between(next, 499, 9999) / 100).toFixed(2);
}

function currency(ctx: Context): string {
  if (ctx.focus.currency === '') ctx.focus.currency = pick(ctx.next, CURRENCIES);
  return ctx.focus.currency;
}

function money(ctx: Context): string {
  return `${currency(ctx)}${amount(ctx.next)}`;
}

function bigMoney(ctx: Context): string {
  return `${currency(ctx)}${withCommas(between(ctx.next, 20, 600) * 100)}`;
}

function price(ctx: Context): string {
  const { next } = ctx;
  const cents = next() < 0.25;
  const value = cents ? (between(next, 299, 12000) / 100).toFixed(2) : String(between(next, 3, 150));
  return `${currency(ctx)}${value}`;
}

function clock(hour: number, minute: number): string {
  const suffix = hour < 12 ? 'am' : 'pm';
  const shown = hour % 12 === 0 ? 12 : hour % 12;
  return minute === 0 ? `${shown} ${suffix}` : `${shown}:${String(minute).padStart(2, '0')} ${suffix}`;
}

function timeBetween(next: () => number, firstHour: number, lastHour: number): string {
  return clock(between(next, firstHour, lastHour), between(next, 0, 3) * 15);
}

function absoluteDate(next: () => number): string {
  const day = between(next, 1, 28);
  const month = pick(next, MONTHS);
  const roll = next();
  if (roll < 0.45) return `${day} ${month}`;
  if (roll < 0.8) return `${month} ${ordinal(day)}`;
  return `the ${ordinal(day)}`;
}

function futureWhen(next: () => number): string {
  const roll = next();
  if (roll < 0.4) return `on ${absoluteDate(next)}`;
  if (roll < 0.6) return `${pick(next, UPCOMING)} ${pick(next, DAYS)}`;
  return pick(next, FUTURE_PHRASES);
}

function pastWhen(next: () => number): string {
  const roll = next();
  if (roll < 0.3) return `on ${absoluteDate(next)}`;
  if (roll < 0.55) return `${pick(next, RECENT)} ${pick(next, DAYS)}`;
  return pick(next, PAST_PHRASES);
}

export const noEcho = (): Echo => ({ name: '', place: '', money: '', when: '' });

export const noFocus = (): Record<FocusKey, string> => ({
  currency: '', room: '', clinic: '', class: '', hobby: '', pet: '', animal: '', event: '', project: '',
});

/** A slot that keeps its first value until the topic changes (one pet, one project, one room at a time). */
function sticky(key: FocusKey, pool: readonly string[]): Slot {
  return (ctx) => {
    if (ctx.focus[key] === '') ctx.focus[key] = pick(ctx.next, pool);
    return ctx.focus[key];
  };
}

/** Wraps a slot so that, while a user message is written, its value is remembered under `key`. */
function recorded(key: keyof Echo, slot: Slot, prefix = ''): Slot {
  return (ctx) => {
    const value = slot(ctx);
    if (ctx.recording) ctx.echo[key] = prefix + value;
    return value;
  };
}

/** The value the user mentioned under `key`, or a fresh one that later references then reuse. */
function echoed(key: keyof Echo, fallback: Slot): Slot {
  return (ctx) => {
    if (ctx.echo[key] === '') ctx.echo[key] = fallback(ctx);
    return ctx.echo[key];
  };
}

export const SLOTS: Record<string, Slot> = {
  name: recorded('name', (c) => pick(c.next, NAMES)),
  place: recorded('place', (c) => pick(c.next, PLACES)),
  venue: (c) => pick(c.next, VENUES),
  subject: (c) => c.subject,
  month: (c) => pick(c.next, MONTHS),
  relation: (c) => pick(c.next, RELATIONS),
  room: sticky('room', ROOMS),
  material: (c) => pick(c.next, MATERIALS),
  clinic: sticky('clinic', CLINICS),
  bodypart: (c) => pick(c.next, BODY_PARTS),
  bill: (c) => pick(c.next, BILLS),
  class: sticky('class', CLASSES),
  hobby: sticky('hobby', HOBBIES),
  pet: sticky('pet', PETS),
  animal: sticky('animal', ANIMALS),
  event: sticky('event', EVENTS),
  project: sticky('project', PROJECTS),
  team: (c) => pick(c.next, TEAMS),
  few: (c) => pick(c.next, FEW),
  day: (c) => pick(c.next, DAYS),
  money: recorded('money', money),
  bigmoney: recorded('money', bigMoney),
  price: recorded('money', price),
  count: (c) => String(between(c.next, 2, 30)),
  percent: (c) => (c.next() < 0.75 ? `${between(c.next, 3, 40)}%` : `${decimal(c.next, 1, 25)}%`),
  score: (c) => `${between(c.next, 52, 98)}%`,
  km: (c) => `${decimal(c.next, 1, 45)} km`,
  kg: (c) => `${decimal(c.next, 0.5, 24)} kg`,
  metres: (c) => `${decimal(c.next, 1.2, 6)} m`,
  minutes: (c) => `${between(c.next, 2, 18) * 5} minutes`,
  hours: (c) => `${between(c.next, 2, 9)} hours`,
  time: (c) => timeBetween(c.next, 7, 20),
  morning: (c) => timeBetween(c.next, 7, 10),
  evening: (c) => timeBetween(c.next, 19, 22),
  date: recorded('when', (c) => absoluteDate(c.next), 'on '),
  when: recorded('when', (c) => futureWhen(c.next)),
  past: (c) => pastWhen(c.next),
  sname: echoed('name', (c) => pick(c.next, NAMES)),
  splace: echoed('place', (c) => pick(c.next, PLACES)),
  smoney: echoed('money', money),
  swhen: echoed('when', (c) => futureWhen(c.next)),
};
