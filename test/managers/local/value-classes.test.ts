import { describe, expect, it } from 'vitest';
import { classesOfLine } from '../../../src/managers/local/value-classes.js';

describe('value classes of a fact line', () => {
  it('tells amounts, dates and counts of people apart', () => {
    expect([...classesOfLine('budget: $82,000 all in')]).toContain('money');
    expect([...classesOfLine('deadline: due Friday May 8')]).toContain('date');
    expect([...classesOfLine('inspection: 16 March, rough-in')]).toContain('date');
    expect([...classesOfLine('staff: thirteen of us on the books now')]).toContain('count');
  });

  it('does not read a month into words that only start like one', () => {
    for (const line of ['team: marketing 12 people', 'slides: 3 decks to review', 'reading: 4 novels this month', 'race: marathon 42 km']) {
      expect([...classesOfLine(line)], line).not.toContain('date');
    }
  });
});
