import { describe, expect, it } from 'vitest';
import { applyCorrections } from '../../../src/eval/locomo/corrections.js';
import { dialoguesOf, parseLocomo, parseLocomoDateTime, splitEvidence } from '../../../src/eval/locomo/dataset.js';
import { miniCorrections, miniLocomo } from './fixtures.js';

describe('parseLocomoDateTime', () => {
  it('reads LoCoMo session times as UTC', () => {
    expect(parseLocomoDateTime('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseLocomoDateTime('10:37 am on 27 June, 2023')).toBe('2023-06-27T10:37:00.000Z');
    expect(parseLocomoDateTime('12:09 am on 2 January, 2024')).toBe('2024-01-02T00:09:00.000Z');
    expect(parseLocomoDateTime('12:30 pm on 29 February, 2024')).toBe('2024-02-29T12:30:00.000Z');
    expect(parseLocomoDateTime('7:00 PM on 3 Sept 2023')).toBe('2023-09-03T19:00:00.000Z');
  });

  it('rejects other forms and days that do not exist', () => {
    for (const text of ['8 May 2023', '13:56 pm on 8 May, 2023', '1:56 pm on 31 April, 2023', '1:56 pm on 8 Maytime, 2023', '']) {
      expect(() => parseLocomoDateTime(text)).toThrow(/not a LoCoMo session time/u);
    }
  });
});

describe('splitEvidence', () => {
  it('splits, repairs and sorts out junk', () => {
    expect(splitEvidence('D3:4; D5:6')).toEqual({ ids: ['D3:4', 'D5:6'], invalid: [] });
    expect(splitEvidence('D:7:8')).toEqual({ ids: ['D7:8'], invalid: [] });
    expect(splitEvidence('D03:4')).toEqual({ ids: ['D3:4'], invalid: [] });
    expect(splitEvidence('D')).toEqual({ ids: [], invalid: ['D'] });
  });
});

describe('parseLocomo', () => {
  it('loads a mini LoCoMo file, tolerating its quirks with warnings', () => {
    const { samples, warnings } = parseLocomo(JSON.stringify(miniLocomo()), 'mini.json');
    expect(samples).toHaveLength(1);
    const [sample] = samples;
    if (sample === undefined) throw new Error('no sample');
    expect(sample).toMatchObject({ sampleId: 'mini-1', index: 0, speakerA: 'Ann', speakerB: 'Bob' });
    // session_3_date_time has no session_3: ignored.
    expect(sample.sessions.map((session) => [session.index, session.timestamp])).toEqual([
      [1, '2023-05-08T13:56:00.000Z'],
      [2, '2023-06-27T10:05:00.000Z'],
    ]);
    expect(dialoguesOf(sample).map((dialogue) => dialogue.diaId)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2', 'D2:3']);
    expect(dialoguesOf(sample)[2]).toEqual({ diaId: 'D1:3', speaker: 'Ann', text: 'Here she is.', imageCaption: 'a photo of a grey cat on a sofa' });
    expect(sample.qa.map((item) => [item.index, item.category, item.answer, item.evidence])).toEqual([
      [0, 4, 'Miso', ['D1:1']],
      [1, 2, 'The day before 27 June 2023', ['D2:1']],
      [2, 1, '2024', ['D1:2', 'D2:3']],
      [3, 5, null, ['D2:3']],
      [4, 3, 'Likely yes', []],
    ]);
    expect(sample.observations).toContainEqual({ session: 2, speaker: 'Bob', text: 'Bob plans to visit Oslo in 2024 and keeps painting.', evidence: ['D1:2', 'D2:3'] });
    expect(sample.observations).toHaveLength(5);
    expect(sample.sessionSummaries.map((summary) => summary.session)).toEqual([1, 2]);
    expect(warnings).toEqual([
      'mini.json sample mini-1 (index 0) qa[2]: evidence "D1:2; D2:3" holds 2 ids; split.',
      'mini.json sample mini-1 (index 0) qa[3]: evidence "D:2:3" read as "D2:3".',
      'mini.json sample mini-1 (index 0) qa[3]: evidence "D" is not a dialogue id; dropped.',
    ]);
  });

  it('drops evidence that names no dialogue of the conversation', () => {
    const data = miniLocomo() as Array<{ qa: Array<{ evidence: string[] }> }>;
    const first = data[0]?.qa[0];
    if (first !== undefined) first.evidence = ['D1:1', 'D9:9'];
    const { samples, warnings } = parseLocomo(data);
    expect(samples[0]?.qa[0]?.evidence).toEqual(['D1:1']);
    expect(warnings[0]).toMatch(/evidence "D9:9" names no dialogue of the conversation; dropped/u);
  });

  it('gives clear errors that say where the problem is', () => {
    expect(() => parseLocomo('{"not": "an array"}', 'x.json')).toThrow(/x\.json is not a LoCoMo file: expected an array of samples/u);
    expect(() => parseLocomo('[1, 2', 'x.json')).toThrow(/x\.json is not valid JSON/u);
    expect(() => parseLocomo('[]', 'x.json')).toThrow(/holds no samples/u);

    const badCategory = miniLocomo() as Array<{ qa: Array<{ category: number }> }>;
    const item = badCategory[0]?.qa[1];
    if (item !== undefined) item.category = 7;
    expect(() => parseLocomo(badCategory, 'x.json')).toThrow(/x\.json sample mini-1 \(index 0\): qa\[1\]\.category: category must be 1–5/u);

    const badSpeaker = miniLocomo() as Array<{ conversation: { session_1: Array<{ speaker: string }> } }>;
    const dialogue = badSpeaker[0]?.conversation.session_1[1];
    if (dialogue !== undefined) dialogue.speaker = 'Carl';
    expect(() => parseLocomo(badSpeaker, 'x.json')).toThrow(/session_1\[1\]\.speaker "Carl" is neither speaker_a "Ann" nor speaker_b "Bob"/u);

    const badDate = miniLocomo() as Array<{ conversation: Record<string, unknown> }>;
    if (badDate[0] !== undefined) badDate[0].conversation.session_2_date_time = 'sometime in June';
    expect(() => parseLocomo(badDate, 'x.json')).toThrow(/conversation\.session_2_date_time: "sometime in June" is not a LoCoMo session time/u);

    const noDate = miniLocomo() as Array<{ conversation: Record<string, unknown> }>;
    if (noDate[0] !== undefined) delete noDate[0].conversation.session_1_date_time;
    expect(() => parseLocomo(noDate, 'x.json')).toThrow(/conversation\.session_1_date_time is missing/u);

    const noText = miniLocomo() as Array<{ conversation: { session_1: unknown[] } }>;
    if (noText[0] !== undefined) noText[0].conversation.session_1[0] = { speaker: 'Ann', dia_id: 'D1:1' };
    expect(() => parseLocomo(noText, 'x.json')).toThrow(/conversation\.session_1\[0\]\.text: /u);
  });
});

describe('applyCorrections', () => {
  it('applies WRONG_CITATION entries matched by question id, else by unique question text', () => {
    const dataset = parseLocomo(miniLocomo());
    const { dataset: corrected, report } = applyCorrections(dataset, miniCorrections(), 'audit.json');
    expect(report).toEqual({
      entries: 4,
      wrongCitations: 3,
      applied: 2,
      matchedById: 1,
      matchedByText: 1,
      unmatched: ['locomo_0_qa9 "Who is Carl?": no QA item has this id and text'],
      otherTypesWithChangedEvidence: 1,
    });
    expect(corrected.samples[0]?.qa[0]?.evidence).toEqual(['D1:1', 'D1:3']);
    expect(corrected.samples[0]?.qa[1]?.evidence).toEqual(['D2:1', 'D2:2']);
    // The HALLUCINATION entry is not applied, and the input dataset is left as it was.
    expect(corrected.samples[0]?.qa[4]?.evidence).toEqual([]);
    expect(dataset.samples[0]?.qa[0]?.evidence).toEqual(['D1:1']);
  });

  it('does not match an id whose question text differs', () => {
    const dataset = parseLocomo(miniLocomo());
    const { report } = applyCorrections(dataset, [
      { question_id: 'locomo_0_qa1', question: "What is the name of Ann's cat?", error_type: 'WRONG_CITATION', correct_evidence: ['D1:3'] },
    ]);
    // qa1 is another question, so the entry is matched by its text (qa0) instead.
    expect(report).toMatchObject({ applied: 1, matchedById: 0, matchedByText: 1 });
  });

  it('rejects a file that is not an audit list', () => {
    expect(() => applyCorrections(parseLocomo(miniLocomo()), { errors: [] }, 'audit.json')).toThrow(/audit\.json is not a LoCoMo audit file/u);
    expect(() => applyCorrections(parseLocomo(miniLocomo()), [{ question: 'q' }], 'audit.json')).toThrow(/audit\.json\[0\]\.error_type/u);
  });
});
