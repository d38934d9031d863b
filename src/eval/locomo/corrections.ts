/**
 * Corrections of the LoCoMo dataset from an audit file: QA items whose evidence or answer the audit
 * found wrong, matched by question, applied to a parsed dataset, with a report of what changed.
 */
import { z } from 'zod';
import { invalidInput, parseJson, parseWith, splitEvidence, type LocomoDataset, type LocomoQa, type LocomoSample } from './dataset.js';

const correctionSchema = z.looseObject({
  question_id: z.string().optional(),
  question: z.string(),
  error_type: z.string(),
  correct_evidence: z.array(z.string()).optional(),
});

export interface CorrectionReport {
  /** Entries of the file. */
  entries: number;
  /** WRONG_CITATION entries, the only ones whose evidence is applied. */
  wrongCitations: number;
  /** Corrections applied, and how each was matched to its QA item. */
  applied: number;
  matchedById: number;
  matchedByText: number;
  /** WRONG_CITATION entries that matched no QA item (question id and text), one line each. */
  unmatched: string[];
  /** Entries of other error types whose evidence differs from the gold data (not applied). */
  otherTypesWithChangedEvidence: number;
}

/**
 * Apply an audit file's `WRONG_CITATION` entries: each replaces the evidence of its QA item. An entry is
 * matched by its `question_id` (`locomo_<sample index>_qa<qa index>`, both 0-based, in the order of the
 * LoCoMo file) when the question there has the same text, else by its question text when exactly one
 * question of the file (of that sample, when the id names one) has it.
 */
export function applyCorrections(dataset: LocomoDataset, value: unknown, source = 'the corrections file'): { dataset: LocomoDataset; report: CorrectionReport } {
  const data = typeof value === 'string' ? parseJson(value, source) : value;
  if (!Array.isArray(data)) throw invalidInput(`${source} is not a LoCoMo audit file: expected an array of { question_id, question, error_type, correct_evidence }.`);
  const entries = data.map((entry, index) => parseWith(correctionSchema, entry, `${source}[${index}]`));
  const samples = dataset.samples.map((sample) => ({ ...sample, qa: sample.qa.map((item) => ({ ...item, evidence: [...item.evidence] })) }));
  const warnings = [...dataset.warnings];
  const report: CorrectionReport = {
    entries: entries.length,
    wrongCitations: 0,
    applied: 0,
    matchedById: 0,
    matchedByText: 0,
    unmatched: [],
    otherTypesWithChangedEvidence: 0,
  };
  const same = (a: string, b: string): boolean => a.trim() === b.trim();
  entries.forEach((entry, position) => {
    const id = /^locomo_(\d+)_qa(\d+)$/u.exec(entry.question_id ?? '');
    const sampleIndex = id === null ? undefined : Number(id[1]);
    const named = sampleIndex === undefined ? undefined : samples[sampleIndex];
    const byId = named?.qa[Number(id?.[2])];
    let target: { sample: LocomoSample; item: LocomoQa; how: 'id' | 'text' } | undefined;
    if (named !== undefined && byId !== undefined && same(byId.question, entry.question)) {
      target = { sample: named, item: byId, how: 'id' };
    } else {
      const pool = named === undefined ? samples : [named];
      const hits = pool.flatMap((sample) => sample.qa.filter((item) => same(item.question, entry.question)).map((item) => ({ sample, item })));
      const [hit] = hits;
      if (hits.length === 1 && hit !== undefined) target = { ...hit, how: 'text' };
    }
    if (entry.error_type !== 'WRONG_CITATION') {
      if (target !== undefined && entry.correct_evidence !== undefined) {
        const corrected = entry.correct_evidence.flatMap((raw) => splitEvidence(raw).ids);
        if (corrected.join(' ') !== target.item.evidence.join(' ')) report.otherTypesWithChangedEvidence += 1;
      }
      return;
    }
    report.wrongCitations += 1;
    const label = `${entry.question_id ?? `${source}[${position}]`} "${entry.question}"`;
    if (target === undefined || entry.correct_evidence === undefined) {
      report.unmatched.push(target === undefined ? `${label}: no QA item has this id and text` : `${label}: no correct_evidence`);
      return;
    }
    const known = new Set(target.sample.sessions.flatMap((session) => session.dialogues.map((dialogue) => dialogue.diaId)));
    const corrected: string[] = [];
    for (const raw of entry.correct_evidence) {
      for (const diaId of splitEvidence(raw).ids) {
        if (!known.has(diaId)) warnings.push(`${source} ${label}: corrected evidence "${diaId}" names no dialogue of ${target.sample.sampleId}; dropped.`);
        else if (!corrected.includes(diaId)) corrected.push(diaId);
      }
    }
    if (corrected.length === 0) {
      report.unmatched.push(`${label}: its corrected evidence names no dialogue`);
      return;
    }
    target.item.evidence = corrected;
    report.applied += 1;
    if (target.how === 'id') report.matchedById += 1;
    else report.matchedByText += 1;
  });
  return { dataset: { samples, warnings }, report };
}
