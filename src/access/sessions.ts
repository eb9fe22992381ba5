// Dashboard sign-in: an email and password exchanged for a random session token, kept by the browser in an
// httpOnly cookie; only its digest is stored. Attempts pass the brute-force guard first (signInGuard.ts).
import { AppError } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import { startSignInAttempt, type SignInLimits } from '../ratelimit/signInGuard.ts';
import { verifyPassword } from './passwords.ts';
import { digestSecret, newSecret } from './secrets.ts';

export async function signIn(
  db: Database,
  input: { email: string; password: string; ttlHours: number; clientAddress: string | undefined; limits: SignInLimits },
): Promise<{ token: string; expiresAt: Date }> {
  const email = input.email.trim().toLowerCase();
  const attempt = await startSignInAttempt(db.pool, input.limits, { email, clientAddress: input.clientAddress });
  const user = await db.prisma.user.findUnique({ where: { email } });
  // The password is checked (and the KDF run) for unknown emails too, so timing does not reveal which exist.
  if (!(await verifyPassword(input.password, user?.passwordHash ?? null)) || !user) {
    throw new AppError('UNAUTHENTICATED', 'invalidCredentials');
  }
  await attempt.succeeded();
  const token = newSecret('sess');
  const expiresAt = new Date(Date.now() + input.ttlHours * 3_600_000);
  await db.prisma.session.create({ data: { userId: user.id, tokenHash: digestSecret(token), expiresAt } });
  return { token, expiresAt };
}

export async function signOut(db: Database, token: string): Promise<void> {
  await db.prisma.session.deleteMany({ where: { tokenHash: digestSecret(token) } });
  db.accessChanged();
}

export interface SessionView {
  user: { id: string; email: string; name: string | null };
  workspaces: { id: string; name: string; role: string }[];
  expiresAt: Date;
}

export async function describeSession(db: Database, token: string): Promise<SessionView> {
  const session = await db.prisma.session.findUnique({
    where: { tokenHash: digestSecret(token) },
    include: { user: { include: { memberships: { include: { workspace: true }, orderBy: { createdAt: 'asc' } } } } },
  });
  if (!session || session.expiresAt.getTime() <= Date.now()) throw new AppError('UNAUTHENTICATED', 'unauthenticated');
  return {
    user: { id: session.user.id, email: session.user.email, name: session.user.name },
    workspaces: session.user.memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
    expiresAt: session.expiresAt,
  };
}
