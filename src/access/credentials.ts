// What a person's email address and password must be, wherever a person is created or given a password (the
// CLI today, any transport tomorrow): one rule, checked here.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { invalidRequest, type ErrorDetail } from '../errors/appError.ts';

/** The email rule of JSON Schema's `format: email`, as the API's own validation applies it. */
const emailPattern = fullFormats.email as RegExp;
/** The longest address SMTP can carry (RFC 5321). */
export const emailMaxLength = 254;
/** Long enough to resist guessing without a second factor; any characters, counted as Unicode code points. */
export const passwordMinLength = 12;

export function credentialProblems(input: { email: string; password?: string | undefined }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const email = input.email.trim();
  if (email.length > emailMaxLength) problems.push({ field: 'email', code: 'maxLength', messageKey: 'detail.maxLength', params: { limit: emailMaxLength } });
  else if (!emailPattern.test(email)) problems.push({ field: 'email', code: 'format', messageKey: 'detail.format', params: { format: 'email' } });
  if (input.password !== undefined && [...input.password].length < passwordMinLength) {
    problems.push({ field: 'password', code: 'minLength', messageKey: 'detail.minLength', params: { limit: passwordMinLength } });
  }
  return problems;
}

/** Throws 400 INVALID_REQUEST with one detail per wrong field. */
export function assertValidCredentials(input: { email: string; password?: string | undefined }): void {
  const problems = credentialProblems(input);
  if (problems.length) throw invalidRequest(problems);
}
