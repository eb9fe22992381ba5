// Dashboard sign-in (/auth/*): the session is an httpOnly cookie; the chosen workspace travels as x-workspace-id.

export interface WorkspaceMembership {
  id: string;
  name: string;
  role: string;
}

export interface Session {
  user: { id: string; email: string; name: string | null };
  workspaces: WorkspaceMembership[];
}

/** An answer of the API in its error shape, with the localized message and per-field details. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: FieldDetail[] = [],
  ) {
    super(message);
  }
}

export interface FieldDetail {
  field: string;
  code?: string;
  message: string;
}

/** The API's error answer (REST or /auth) as an ApiError. */
export async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; details?: FieldDetail[] } } | null;
  return new ApiError(body?.error?.code ?? 'INTERNAL', body?.error?.message ?? response.statusText, body?.error?.details ?? []);
}

export async function fetchSession(): Promise<Session | null> {
  const response = await fetch('/auth/session', { credentials: 'same-origin' });
  if (response.status === 401) return null;
  if (!response.ok) throw await errorOf(response);
  return ((await response.json()) as { data: Session }).data;
}

export async function signIn(email: string, password: string): Promise<void> {
  const response = await fetch('/auth/login', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw await errorOf(response);
}

export async function signOut(): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin' });
}
