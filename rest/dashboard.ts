// The dashboard (web/, built into web/dist by `npm install`): its files, and index.html for any other GET of a
// page that asks for HTML, so the app's own routes (/calendar, /posts/…) load on a reload. Mounted after the API:
// the API's paths never reach it, and their unknown paths keep the API's JSON 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { projectRoot } from '../src/projectRoot.js';

const distDirectory = join(projectRoot, 'web/dist');
const apiPaths = /^\/(v1|graphql|auth|mcp|oauth|uploads|media-files|sandbox|healthz|readyz|metrics|docs)(\/|$)/;

/** `contentSecurityPolicy` is the page's (securityHeaders.ts); its scripts and styles are files, answered as any other. */
export function dashboardRouter(contentSecurityPolicy: string, directory = distDirectory): Router {
  const router = express.Router();
  if (!existsSync(directory)) return router;
  // Vite names the assets by their content: a changed file is a new name.
  router.use('/assets', express.static(join(directory, 'assets'), { index: false, immutable: true, maxAge: '1y' }));
  router.get(/.*/, (req, res, next) => {
    if (apiPaths.test(req.path) || req.accepts(['application/json', 'text/html']) !== 'text/html') return next();
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', contentSecurityPolicy);
    res.sendFile('index.html', { root: directory });
  });
  return router;
}
