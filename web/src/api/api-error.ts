/** A failed request, with the server's error code and its message (which says what to do). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The `{ error: { code, message } }` body of a failed answer, or a description of what came instead. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string') return new ApiError(response.status, body.error.code, body.error.message);
  } catch {
    // Not JSON: described below.
  }
  return new ApiError(response.status, 'HTTP_' + response.status, `The server answered ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}.`);
}

/** What to show for any failure: the server's message, or the browser's for a network failure. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return `The server could not be reached (${error.message}). Is strata serve still running?`;
  return error instanceof Error ? error.message : String(error);
}
