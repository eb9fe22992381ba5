// An MCP client signing in with OAuth through the dashboard in Chromium: the SDK's client auth sends the browser to
// /authorize, the consent page asks the person to sign in first, shows the client and where the answer goes, and
// Allow sends the browser back with a code (Deny with access_denied); the API keys page then lists the connected app
// with its last use, and Disconnect refuses its token at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestService } from '../support/service.ts';
import { succeed } from '../support/mcp.ts';
import { connectedClient, mcpStatus, oauthTransport, ownerPassword as password, RecordingClientProvider, startOAuthService } from '../support/mcpOAuth.ts';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { launchBrowser, type Browser } from './chromium.ts';

let service: TestService;
let base: string;
let browser: Browser;
let page: Page;
let email: string;
/** The client's loopback redirect URI (a native client's, RFC 8252): records what the browser brought back. */
let callback: Server;
let callbackUrl: string;
const arrivals: URL[] = [];

beforeAll(async () => {
  ({ service, base, email } = await startOAuthService());
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? '/', callbackUrl);
    if (url.pathname === '/callback') arrivals.push(url);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You may close this window.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser({ locale: 'en-US', timezoneId: 'Europe/Berlin' });
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callback?.close(resolve));
  await service?.stop();
});

async function startSignIn(provider: RecordingClientProvider): Promise<void> {
  await expect(connectedClient(base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
  await page.goto(provider.authorizationUrl!.href);
}

async function arrival(): Promise<URL> {
  await page.waitForURL((url) => url.href.startsWith(callbackUrl));
  return arrivals.at(-1)!;
}

describe('connecting an MCP client in the dashboard', () => {
  it('signs the person in, asks for consent naming the client and its host, and Allow brings a working token back', async () => {
    const provider = new RecordingClientProvider(callbackUrl, 'Claude');
    await startSignIn(provider);
    // Not signed in yet: the consent page signs in first.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connect an app' }).waitFor();
    const host = new URL(callbackUrl).host;
    await page.getByText(`Claude asks to act for you in this workspace. Your answer goes to ${host}.`).waitFor();
    await page.getByRole('radio', { name: 'Read only' }).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await arrival();
    expect(back.searchParams.get('state')).toBe(provider.authorizationUrl!.searchParams.get('state'));
    await oauthTransport(base, provider).finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.scope).toBe('posts:read media:read accounts:read analytics:read');
    const client = await connectedClient(base, provider);
    try {
      expect((await succeed(client, 'list_social_accounts')).accounts).toHaveLength(1);
    } finally {
      await client.close();
    }

    // The API keys page lists it with its last use; Disconnect refuses its token from that moment.
    await page.goto(`${base}/api-keys`);
    const row = page.getByRole('row').filter({ hasText: 'Claude' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(host);
    expect(await row.textContent()).not.toContain('Not yet');
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect app' }).click();
    await page.getByText('No connected apps').waitFor();
    expect(await mcpStatus(base, provider.saved!.access_token)).toBe(401);
  });

  it('sends Deny back to the client as access_denied', async () => {
    const provider = new RecordingClientProvider(callbackUrl, 'ChatGPT');
    await startSignIn(provider);
    await page.getByText('ChatGPT asks to act for you').waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    const back = await arrival();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
