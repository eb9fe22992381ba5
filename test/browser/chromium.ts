// Headless Chromium for the dashboard's browser tests: Debian's /usr/bin/chromium, or CHROMIUM_PATH.
// No Chromium is a failure with the way to fix it, never a silent skip.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const artifactsDirectory = fileURLToPath(new URL('./artifacts/', import.meta.url));

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`No Chromium at ${path}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.`);
  }
  return path;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A fresh profile (its own user-data-dir), offline-friendly flags, a fixed language and time zone.
 * `hostResolverRules` (Chromium's `--host-resolver-rules`, e.g. `MAP dashboard.test:80 127.0.0.1:4321`) lets the
 * page reach the service under another address than the one it listens on.
 */
export async function launchBrowser(options: { locale: string; timezoneId: string; hostResolverRules?: string }): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'sps-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    locale: options.locale,
    timezoneId: options.timezoneId,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.hostResolverRules ? [`--host-resolver-rules=${options.hostResolverRules}`] : []),
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * The page at 1280 and 375 px wide: a screenshot of each under test/browser/artifacts/; what is wrong with it at
 * either width: axe-core's serious and critical violations, and any horizontal scrolling.
 */
export async function inspectPage(page: Page, name: string): Promise<string[]> {
  await mkdir(artifactsDirectory, { recursive: true });
  const problems: string[] = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(artifactsDirectory, `${name}-${width}.png`), fullPage: true });
    for (const violation of await seriousViolations(page)) {
      problems.push(
        `${width} px: ${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    }
    const overflow = await page.evaluate((viewport) => {
      const beyond = [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > viewport);
      const describe = (element: Element) => element.tagName.toLowerCase() + (element.className ? `.${String(element.className).split(' ').join('.')}` : '');
      return { scrollWidth: document.documentElement.scrollWidth, beyond: beyond.slice(0, 3).map(describe) };
    }, width);
    if (overflow.scrollWidth > width) problems.push(`${width} px: the page is ${overflow.scrollWidth} px wide (${overflow.beyond.join(', ')})`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}

/** The text of what describes `element` (`aria-describedby`, one id): the row a short-labelled button acts on. */
export async function descriptionOf(element: Locator): Promise<string | null> {
  const id = await element.getAttribute('aria-describedby');
  return id ? element.page().locator(`[id="${id}"]`).textContent() : null;
}
