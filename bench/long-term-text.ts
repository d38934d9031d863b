/**
 * Varied long-term memories and questions for the long-term bench: sentences about people, work,
 * health, travel and food with names, days and numbers, tagged by topic, so word search, tags and
 * scoring meet text like a tenant's rather than one repeated template.
 */
type Random = () => number;

const PEOPLE = ['Noor', 'Marcus', 'Ellie', 'Jonah', 'Rachel', 'Margit', 'Sunita', 'Kit', 'Dana', 'Chidi', 'Rolf', 'Orla', 'Priya', 'Tomás', 'Mei', 'Sven'];
const THINGS = ['aisle seats', 'short paragraphs', 'oat milk', 'window tables', 'early flights', 'video calls', 'paper invoices', 'dark mode', 'spreadsheets', 'voice notes', 'standing desks', 'green tea'];
const TOOLS = ['Obsidian', 'Xero', 'Square', 'Figma', 'Postgres', 'Kubernetes', 'Notion', 'Slack', 'Jira', 'Excel'];
const PLACES = ['Lisbon', 'Manchester', 'Zurich', 'Boston', 'Stockholm', 'Hebden Bridge', 'Amsterdam', 'Berlin'];
const FOODS = ['tree nuts', 'shellfish', 'gluten', 'dairy', 'sesame', 'eggs'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const TEMPLATES: ReadonlyArray<(random: Random, index: number) => { value: string; tags: string[] }> = [
  (random) => ({ value: `${pick(random, PEOPLE)} prefers ${pick(random, THINGS)} when working from ${pick(random, PLACES)}.`, tags: ['preferences'] }),
  (random) => ({ value: `Never schedule anything with ${pick(random, PEOPLE)} on a ${pick(random, DAYS)}.`, tags: ['rules', 'work/scheduling'] }),
  (random) => ({ value: `${pick(random, PEOPLE)}'s birthday is ${pick(random, MONTHS)} ${String(1 + Math.floor(random() * 28))}.`, tags: ['family/birthdays'] }),
  (random, index) => ({ value: `The ${pick(random, TOOLS)} setup for project ${String(index % 400)} runs version ${String(1 + Math.floor(random() * 20))}.`, tags: ['work/tools'] }),
  (random) => ({ value: `Allergic to ${pick(random, FOODS)}: keep it out of every recipe for ${pick(random, PEOPLE)}.`, tags: ['health'] }),
  (random) => ({ value: `${pick(random, PEOPLE)} charges €${String(40 + Math.floor(random() * 80))} an hour and invoices in ${pick(random, ['euros', 'dollars', 'pounds'])}.`, tags: ['work/finance'] }),
  (random) => ({ value: `${pick(random, PEOPLE)} moved to ${pick(random, PLACES)} in ${pick(random, MONTHS)}; calls go by its time zone.`, tags: ['profile', 'travel'] }),
];

/** The `index`-th memory's value and tags. */
export function memoryText(random: Random, index: number): { value: string; tags: string[] } {
  return pick(random, TEMPLATES)(random, index);
}

const QUESTIONS: ReadonlyArray<(random: Random) => string> = [
  (random) => `Can we book the review with ${pick(random, PEOPLE)} on ${pick(random, DAYS)} afternoon?`,
  (random) => `What should I cook for ${pick(random, PEOPLE)} this weekend, any allergies?`,
  (random) => `When is ${pick(random, PEOPLE)}'s birthday again?`,
  (random) => `Which ${pick(random, TOOLS)} version does the project run?`,
  (random) => `What hourly rate does ${pick(random, PEOPLE)} charge?`,
  (random) => `Draft a note to ${pick(random, PEOPLE)} about the move to ${pick(random, PLACES)}.`,
  () => 'What is the weather like tomorrow?',
];

/** A question like a chat user's. */
export function question(random: Random): string {
  return pick(random, QUESTIONS)(random);
}
