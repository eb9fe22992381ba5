// Dashboard sign-in: POST /auth/login sets the httpOnly session cookie, POST /auth/logout ends it,
// GET /auth/session says who is signed in and to which workspaces they belong. The client address that the
// sign-in guard counts is express's `req.ip` (see TRUST_PROXY).
import express, { type Router } from 'express';
import { describeSession, signIn, signOut } from '../src/access/sessions.ts';
import { invalidRequest, AppError } from '../src/errors/appError.ts';
import type { Services } from '../src/runtime.ts';
import { sessionCookie, sessionTokenOf } from './authenticate.ts';
import { contextOf } from './requestContext.ts';
import { refuseUnstorableText, verifyJsonText } from './errors.ts';

function credentialsOf(body: unknown): { email: string; password: string } {
  const input = (body ?? {}) as Record<string, unknown>;
  const missing = (['email', 'password'] as const).filter((field) => typeof input[field] !== 'string' || !input[field]);
  if (missing.length) throw invalidRequest(missing.map((field) => ({ field, code: 'required', messageKey: 'detail.required' as const })));
  return { email: input.email as string, password: input.password as string };
}

export function dashboardAuthRouter(services: Services): Router {
  const router = express.Router();
  const secure = services.config.publicBaseUrl.startsWith('https://');
  router.use(express.json({ limit: '16kb', verify: verifyJsonText }), refuseUnstorableText);
  router.post('/login', async (req, res) => {
    contextOf(res).route = `${req.baseUrl}/login`;
    const { email, password } = credentialsOf(req.body);
    const session = await signIn(services.db, {
      email,
      password,
      ttlHours: services.config.sessionTtlHours,
      clientAddress: req.ip,
      limits: services.config.signInLimits,
    });
    res.cookie(sessionCookie, session.token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: session.expiresAt });
    res.status(204).end();
  });
  router.post('/logout', async (req, res) => {
    contextOf(res).route = `${req.baseUrl}/logout`;
    const token = sessionTokenOf(req);
    if (token) await signOut(services.db, token);
    res.clearCookie(sessionCookie, { path: '/' });
    res.status(204).end();
  });
  router.get('/session', async (req, res) => {
    contextOf(res).route = `${req.baseUrl}/session`;
    const token = sessionTokenOf(req);
    if (!token) throw new AppError('UNAUTHENTICATED', 'sessionMissing');
    res.json({ data: await describeSession(services.db, token) });
  });
  return router;
}
