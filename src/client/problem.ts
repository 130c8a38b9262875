/** An error answer: `application/problem+json` (RFC 9457) with the server's `code` (docs/api.md "Errors"). */
export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code?: string;
  field?: string;
  scope?: string;
  [extension: string]: unknown;
}

/** Thrown by `unwrap` for an error answer: the status, the problem+json body and the raw response. */
export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    readonly response: Response,
  ) {
    super(`${problem.status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'ProblemError';
  }

  get status(): number {
    return this.problem.status;
  }

  get code(): string | undefined {
    return this.problem.code;
  }
}

function asProblem(error: unknown, response: Response): Problem {
  if (typeof error === 'object' && error !== null && typeof (error as Problem).title === 'string')
    return { ...(error as Problem), status: response.status };
  const detail = typeof error === 'string' ? error : undefined;
  return { title: response.statusText || 'error', status: response.status, detail };
}

/** The data of a typed client's answer, or a thrown `ProblemError` when it is an error (4xx/5xx). */
export function unwrap<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (result.error !== undefined || !result.response.ok)
    throw new ProblemError(asProblem(result.error, result.response), result.response);
  return result.data as D;
}
