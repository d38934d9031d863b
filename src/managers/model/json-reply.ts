import type { z } from 'zod';

/** A checked model answer, or what is wrong with it. */
export type ReplyCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A whole reply wrapped in a markdown code fence, as models in prompt mode often send JSON. */
const FENCED = /^(`{3,}|~{3,})[\w-]*[ \t]*\n([\s\S]*?)\n?\1$/u;

/** The reply without a code fence around it (and without surrounding white space). */
export function unfence(text: string): string {
  const trimmed = text.trim();
  const match = FENCED.exec(trimmed);
  return match?.[2]?.trim() ?? trimmed;
}

/** The first problem zod found, as `diff.add.0.text: expected string, received number`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unexpected shape';
  const path = issue.path.map(String).join('.');
  return `${path === '' ? 'the reply' : path}: ${issue.message}`;
}

/** Parse a JSON reply (a code fence around it is allowed) and check its shape; nothing else is accepted. */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): ReplyCheck<T> {
  let value: unknown;
  try {
    value = JSON.parse(unfence(text));
  } catch (error) {
    return { ok: false, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: `wrong shape at ${describeIssue(parsed.error)}` };
}
