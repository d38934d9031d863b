import { describe, expect, it } from 'vitest';
import { hasPlaceholderTitle, placeholderTitle, titleFromExchange } from '../../src/core/session-title.js';
import { loneSurrogateIndex } from '../../src/core/text.js';

describe('session titles', () => {
  it('names a session after the first sentence of what the person said, without greetings or requests around it', () => {
    expect(titleFromExchange('Hi! Can you help me plan a kitchen refit? Budget is £18k.', 'Sure.')).toBe('Plan a kitchen refit');
    expect(titleFromExchange('Our budget for the kitchen is £18,000 and the fitter starts on 3 March.', undefined)).toBe('Our budget for the kitchen is £18,000…');
    expect(titleFromExchange('hello, thanks. I need help with my passport renewal', undefined)).toBe('My passport renewal');
    expect(titleFromExchange('   ', 'Here is the migration plan for the billing service.')).toBe('Here is the migration plan for the…');
    expect(titleFromExchange('## Deploy checklist\n- step one', undefined)).toBe('Deploy checklist');
    expect(titleFromExchange('?!', undefined)).toBeNull();
    expect(titleFromExchange('Supercalifragilisticexpialidocious'.repeat(3), undefined)?.length).toBeLessThanOrEqual(61);
    expect(titleFromExchange('Well-being plan for the team', undefined)).toBe('Well-being plan for the team');
    expect(titleFromExchange('So-called smart meters keep failing', undefined)).toBe('So-called smart meters keep failing');
    expect(titleFromExchange('```ts\nconst x = 1;\n```\nWhy does this fail?', undefined)).toBe('Why does this fail');
    const emoji = titleFromExchange('a🎉'.repeat(45), undefined) ?? '';
    expect(emoji.endsWith('…')).toBe(true);
    expect(Array.from(emoji)).toHaveLength(61);
    expect(loneSurrogateIndex(emoji)).toBe(-1);
  });

  it('recognises only the placeholder of the minute the session was made', () => {
    const createdAt = '2026-03-01T09:15:42.000Z';
    expect(placeholderTitle(createdAt)).toBe('Session 2026-03-01 09:15');
    expect(hasPlaceholderTitle({ title: 'Session 2026-03-01 09:15', createdAt })).toBe(true);
    expect(hasPlaceholderTitle({ title: 'Session 2026-03-01 09:16', createdAt })).toBe(false);
    expect(hasPlaceholderTitle({ title: 'Kitchen', createdAt })).toBe(false);
  });
});
