import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/core/text.js';
import { alternativeProblem, matchesAlternative, MustInclude, normalizeForMatching } from '../../src/eval/match.js';

describe('normalizeForMatching', () => {
  it('lower-cases, applies NFKC and collapses punctuation and symbols to single spaces', () => {
    expect(normalizeForMatching('  The Budget is $45,000 (EUR)!  ')).toBe('the budget is 45 000 eur');
    expect(normalizeForMatching('Node.js — v22')).toBe('node js v22');
    expect(normalizeForMatching('ＡＰＩ ｋｅｙ')).toBe('api key');
    expect(normalizeForMatching('ﬁle №5')).toBe('file no5');
  });

  it('agrees with core normalizeText on Latin text, but keeps combining marks inside their word', () => {
    for (const text of ['Café au lait, 3×/day', 'e-mail: PRIYA@halden.example', 'Straße #12; ½ price', 'naïve résumé']) {
      expect(normalizeForMatching(text)).toBe(normalizeText(text));
    }
    expect(normalizeForMatching('हिन्दी')).toBe('हिन्दी');
    expect(normalizeText('हिन्दी')).not.toBe('हिन्दी');
  });
});

describe('phrase alternatives', () => {
  it('match whole words only, numbers included', () => {
    expect(matchesAlternative('We need 200 seats', '200')).toBe(true);
    expect(matchesAlternative('We need 2000 seats', '200')).toBe(false);
    expect(matchesAlternative('About 1200 customers', '200')).toBe(false);
    expect(matchesAlternative('200.', '200')).toBe(true);
    expect(matchesAlternative('renewal', 'renew')).toBe(false);
  });

  it('match "45 000" in "$45,000", and the alternative is normalised too', () => {
    expect(matchesAlternative('The budget changed to $45,000.', '45 000')).toBe(true);
    expect(matchesAlternative('The budget changed to $45,000.', '$45,000')).toBe(true);
    expect(matchesAlternative('The budget changed to $45,000.', '45000')).toBe(false);
    expect(matchesAlternative('The budget changed to $145,000.', '45 000')).toBe(false);
  });

  it('match phrases across punctuation and case', () => {
    expect(matchesAlternative('Upgrade Node.js next month', 'node js')).toBe(true);
    expect(matchesAlternative('auto-renews yearly', 'auto renews')).toBe(true);
    expect(matchesAlternative('Go-Live: 15 April', '15 april')).toBe(true);
    expect(matchesAlternative('April 15', '15 april')).toBe(false);
  });

  it('do not let a mark-less word match a word with a vowel sign', () => {
    expect(matchesAlternative('कि', 'क')).toBe(false);
    expect(matchesAlternative('यह कि है', 'कि')).toBe(true);
  });
});

describe('re: alternatives', () => {
  it('are case-insensitive regular expressions run on the normalised text', () => {
    const alternative = 're:node.{0,25}\\b22\\b';
    expect(matchesAlternative('Upgrade Node.js from 18 to 22 in May', alternative)).toBe(true);
    expect(matchesAlternative('NODE 22', alternative)).toBe(true);
    expect(matchesAlternative('Node 220 is not a thing', alternative)).toBe(false);
    expect(matchesAlternative('22 nodes', alternative)).toBe(false);
    expect(matchesAlternative('Node is great, and much later, after a very long digression, version 22', alternative)).toBe(false);
    expect(matchesAlternative('ticket TTL', 're:TTL')).toBe(true);
  });

  it('see no punctuation, because the normalised text has none', () => {
    expect(matchesAlternative('$45,000', 're:\\$45')).toBe(false);
    expect(matchesAlternative('$45,000', 're:^45 000$')).toBe(true);
  });

  it('are checked: invalid patterns and alternatives without letters or digits are reported', () => {
    expect(alternativeProblem('re:(unclosed')).toMatch(/not a valid regular expression/u);
    expect(alternativeProblem('re:')).toMatch(/empty regular expression/u);
    expect(alternativeProblem('$!')).toMatch(/no letters or digits/u);
    expect(alternativeProblem('re:\\b22\\b')).toBeNull();
    expect(alternativeProblem('ISO 27001')).toBeNull();
  });
});

describe('MustInclude', () => {
  it('tells which groups one text satisfies', () => {
    const groups = new MustInclude([['china', 'mainland'], ['data', 'stored', 'hosted'], ['re:\\b20\\d\\d\\b']]);
    expect(groups.groupCount).toBe(3);
    expect(groups.satisfied('Customer data must be stored in China.')).toEqual([true, true, false]);
    expect(groups.count('Hosted on the mainland since 2024')).toBe(3);
    expect(groups.count('Nothing relevant')).toBe(0);
  });
});
