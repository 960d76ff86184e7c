import { APIError } from 'better-auth/api';

/**
 * Limits better-auth does not set on its own bodies. A null or 10,000-character name reached the database and failed
 * there (a 500); here it is a 400 that names the field, before any endpoint runs.
 */
const NAME_MAX = 100;
const EMAIL_MAX = 254;
const IMAGE_MAX = 2000;

function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.trim() === '') return 'name: a name is required';
  if (name.length > NAME_MAX) return `name: must be at most ${NAME_MAX} characters`;
  return null;
}

export function authBodyProblem(path: string, body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Record<string, unknown>;
  if (typeof fields.email === 'string' && fields.email.length > EMAIL_MAX) return `email: must be at most ${EMAIL_MAX} characters`;
  if (path === '/sign-up/email') return nameProblem(fields.name);
  if (path === '/update-user') {
    if ('name' in fields) {
      const problem = nameProblem(fields.name);
      if (problem) return problem;
    }
    if ('image' in fields && fields.image !== null && (typeof fields.image !== 'string' || fields.image.length > IMAGE_MAX)) {
      return `image: must be a link of at most ${IMAGE_MAX} characters, or null`;
    }
  }
  return null;
}

/** For auth.ts's before hook: a 400 naming the field, before any endpoint runs. */
export function assertAuthBody(path: string, body: unknown) {
  const problem = authBodyProblem(path, body);
  if (problem) throw new APIError('BAD_REQUEST', { message: problem, code: 'INVALID_INPUT' });
}
