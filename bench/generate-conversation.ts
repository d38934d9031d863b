/** A deterministic generator of long, varied task conversations for benchmarks. */
import { seededRandom } from './seeded-random.js';

const PEOPLE = ['Maya', 'Tomás', 'Lena', 'Jonas', 'Priya', 'Kwame'];
const PLACES = ['Berlin', 'Lisbon', 'Frankfurt', 'Toronto', 'Osaka'];
const THINGS = ['the staging cluster', 'the billing service', 'the support inbox', 'the nightly backup', 'the search index', 'the onboarding flow'];
const SMALL_TALK = [
  'Thanks, that helps a lot.',
  'Good morning! Coffee first, then the plan.',
  'Sounds good to me.',
  'Ha, fair enough. Let us keep going.',
  'Quick break, back in five minutes.',
];

export interface GeneratedMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface GenerateOptions {
  /** Share of assistant replies that are a short acknowledgement (default 0.5); the rest are 40 words or more, or code. */
  shortReplyShare?: number;
}

/** `messageCount` messages alternating user/assistant, with constraints, corrections, small talk and code. */
export function generateConversation(messageCount: number, seed = 42, options: GenerateOptions = {}): GeneratedMessage[] {
  const shortReplyShare = options.shortReplyShare ?? 0.5;
  const longShare = (1 - shortReplyShare) * 0.7;
  const planShare = (1 - shortReplyShare) * 0.2;
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const messages: GeneratedMessage[] = [];
  for (let index = 0; messages.length < messageCount; index += 1) {
    const roll = next();
    const person = pick(PEOPLE);
    const place = pick(PLACES);
    const thing = pick(THINGS);
    const amount = (Math.floor(next() * 90) + 10) * 1000;
    let user: string;
    if (roll < 0.25) user = pick(SMALL_TALK);
    else if (roll < 0.45) user = `The budget for ${thing} is $${amount.toLocaleString('en-US')} and it must be done before the review with ${person} in ${place}.`;
    else if (roll < 0.55) user = `Actually, the budget for ${thing} changed to $${(amount + 5000).toLocaleString('en-US')}; ${person} approved it.`;
    else if (roll < 0.6) user = `We must never run migrations on ${thing} during business hours in ${place}.`;
    else if (roll < 0.8) user = `Can you check ${thing} again? ${person} says the error rate went up after Tuesday's deploy.`;
    else user = `I prefer short answers. What is the status of ${thing}, and who owns it now that ${person} moved to ${place}?`;
    let assistant: string;
    const size = next();
    if (size < shortReplyShare) assistant = `Noted. I will track ${thing} with ${person} and report back.`;
    else if (size < shortReplyShare + longShare) {
      assistant = `Here is where ${thing} stands. ${person} owns it from ${place}. The last deploy raised the error rate by 2 percent, so I suggest a rollback window on Thursday and a follow-up review. The budget line stays at $${amount.toLocaleString('en-US')} unless finance objects.`;
    } else if (size < shortReplyShare + longShare + planShare) {
      assistant = `A longer plan for ${thing}: ${Array.from({ length: 12 }, (_, step) => `Step ${step + 1}: review item ${step + 1} with ${pick(PEOPLE)} and record the outcome in the tracker.`).join(' ')}`;
    } else {
      assistant = `Here is the script for ${thing}:\n\`\`\`ts\nexport async function check${index}(): Promise<number> {\n  const response = await fetch('https://status.example/${index}');\n  return response.status;\n}\n\`\`\``;
    }
    messages.push({ role: 'user', content: user });
    if (messages.length < messageCount) messages.push({ role: 'assistant', content: assistant });
  }
  return messages;
}
