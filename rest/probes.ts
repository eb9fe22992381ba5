// What operators and their tools ask every process (API and worker alike): is it alive (/healthz), can it work
// (/readyz: its database answers), and what does it measure (/metrics, Prometheus text, behind METRICS_TOKEN).
import { timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import type { Services } from '../src/runtime.ts';
import { AppError } from '../src/errors/appError.ts';
import { contextOf } from './requestContext.ts';

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function probesRouter(services: Services): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    contextOf(res).route = '/healthz';
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    contextOf(res).route = '/readyz';
    try {
      await services.db.pool.query('SELECT 1');
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });
  router.get('/metrics', async (req, res) => {
    contextOf(res).route = '/metrics';
    const token = services.config.metricsToken;
    if (token && !bearerMatches(req.get('authorization'), token))
      throw new AppError('UNAUTHENTICATED', 'unauthenticated', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    res.setHeader('content-type', services.metrics.contentType);
    res.send(await services.metrics.metrics());
  });
  return router;
}
