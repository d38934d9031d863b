import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_VALUE } from '../../src/core/long-term-memory.js';
import { memoryValueOf, promotionOf, restates, saysChange, stands, subjectOf, tiedToMoment } from '../../src/core/promotion.js';
import type { FactKind } from '../../src/core/types.js';

const fact = (kind: FactKind, text: string): { key: string; kind: FactKind; text: string } => ({ key: text.slice(0, text.indexOf(':')), kind, text });

describe('which session facts stand beyond their session', () => {
  it('promotes standing rules, exceptions, preferences, long-lived goals and facts about the user, each with its broad tag', () => {
    expect(promotionOf(fact('exception', 'mobile number: never include my personal mobile number in anything you draft'))).toEqual({
      subject: 'mobile-number',
      tag: 'rules',
      value: 'mobile number: never include my personal mobile number in anything you draft',
    });
    expect(promotionOf(fact('constraint', 'schedule: Don’t schedule anything on a Saturday, ever'))?.tag).toBe('rules');
    expect(promotionOf(fact('preference', 'short paragraphs: realised I prefer short paragraphs'))?.tag).toBe('preferences');
    expect(promotionOf(fact('goal', 'career: eventually I want to run my own studio'))?.tag).toBe('goals');
    expect(promotionOf(fact('fact', 'allergy: I’m allergic to tree nuts'))?.tag).toBe('profile');
    expect(promotionOf(fact('fact', 'home: we moved to Lisbon in November'))?.tag).toBe('profile');
    expect(promotionOf(fact('fact', 'rate: €65 an hour'))?.subject).toBe('rate');
  });

  it('leaves in the session what holds at one moment, what is not standing, and other people’s wishes', () => {
    expect(stands('constraint', 'email: Today I need an email to Margit about the colour proofs')).toBe(false);
    expect(stands('preference', 'call: wants a call next week to go through the proofs')).toBe(false);
    expect(stands('preference', 'margit preference: wants a check-in call about the last spreads')).toBe(false);
    expect(stands('preference', 'dana: she wants parse_events to take a stream')).toBe(false);
    expect(stands('constraint', 'final artwork deadline: the final artwork is now due 4 December')).toBe(false);
    expect(stands('constraint', 'bread order: need to get the bread order in before five')).toBe(false);
    expect(stands('goal', 'brightwater goal: want to invoice Brightwater in dollars')).toBe(false);
    expect(stands('fact', 'blues: spreads 4 and 5 came out far too purple')).toBe(false);
    expect(stands('exception', 'cash: never pay anyone in cash on 3 May 2026')).toBe(false);
    expect(stands('preference', 'tea: what tea do you like?')).toBe(false);
    expect(stands('preference', 'x: fine')).toBe(false);
  });

  it('reads a moment the statement starts from as standing, and a weekday in the plural as a rule', () => {
    expect(tiedToMoment("rate: from 1 January I'm charging €75 an hour")).toBe(false);
    expect(tiedToMoment('rate: as of March 3rd the rate is €80')).toBe(false);
    expect(tiedToMoment('meeting: on Monday at 10:00')).toBe(true);
    expect(tiedToMoment('work: never work on Saturdays')).toBe(false);
    expect(tiedToMoment('deadline: due 2026-12-04')).toBe(true);
    expect(stands('fact', "rate: from 1 January I'm charging €75 an hour")).toBe(true);
  });

  it('makes a subject of a key: lower case, words singular, joined by dashes', () => {
    expect(subjectOf('Ellie closes')).toBe('ellie-close');
    expect(subjectOf('ellie close')).toBe('ellie-close');
    expect(subjectOf('glass / address')).toBe('glass-address');
    expect(subjectOf('  ')).toBe('');
  });

  it('tells a restatement under another subject from a different statement sharing a word', () => {
    expect(restates('work: never work Saturdays', 'schedule: Don’t schedule anything on a Saturday, ever')).toBe(true);
    expect(restates('ellie close: Ellie is never on the close', 'ellie closes: she is never on the closes, end of')).toBe(true);
    expect(restates('calls: never schedule calls before 10:00', 'schedule: never schedule anything on Fridays')).toBe(false);
    expect(restates("schedule: Never schedule anything on a Saturday, ever", 'invoices: Never send invoices on a Saturday')).toBe(false);
    expect(restates('hourly rate: I charge €65 an hour', 'day rate: I charge €500 a day')).toBe(false);
    expect(restates('mobile number: never include my mobile number', 'spelling: always use American spelling')).toBe(false);
  });

  it('tells a statement that says it changes something', () => {
    expect(saysChange("rate: I'm charging €75 an hour now")).toBe(true);
    expect(saysChange('rate: €75 an hour, not €65')).toBe(true);
    expect(saysChange('goal: learn Spanish one day')).toBe(false);
  });

  it('reads a key as a fact about the user only when the whole key names one, and an exception only when standing', () => {
    expect(stands('fact', 'rate: €65 an hour', 'rate')).toBe(true);
    expect(stands('fact', 'project name: The project name is Apollo Redesign', 'project-name')).toBe(false);
    expect(stands('fact', 'venue address: 12 Main Street, Leeds', 'venue-address')).toBe(false);
    expect(stands('exception', 'ellie: Ellie can have until Friday for the rota swap')).toBe(false);
    expect(stands('exception', 'cash: we never pay anyone in cash')).toBe(true);
  });

  it('cuts a long value at a word, within the memory limit', () => {
    const value = memoryValueOf(`rule: ${'never do that again '.repeat(40)}`);
    expect([...value].length).toBeLessThanOrEqual(MAX_MEMORY_VALUE);
    expect(value.endsWith('again…') || value.endsWith('that…') || value.endsWith('do…') || value.endsWith('never…')).toBe(true);
    expect(memoryValueOf('short: as it is ')).toBe('short: as it is');
  });
});
