// The image as an operator runs it (docs/deployment.md): built from this checkout, started on an empty volume, set
// up with `sps` inside it, stopped with SIGTERM, started again on the same volume, and pointed at an outside
// PostgreSQL with DATABASE_URL. The figures (build time, first start to /readyz, size) are printed.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../src/net.ts';
import { buildImage, podman, podmanStatus, sps, uniqueName, waitForReady } from './podman.ts';

const image = 'localhost/social-publishing-service:test';
const containers: string[] = [];
const volumes: string[] = [];

beforeAll(async () => {
  const { seconds } = await buildImage(image);
  const size = await podman('image', 'inspect', '--format', '{{.Size}}', image);
  console.log(`image built in ${seconds.toFixed(0)} s, ${(Number(size) / 1e6).toFixed(0)} MB`);
});

// --volumes: the anonymous volume of /data that a container without --volume gets.
afterAll(async () => {
  for (const container of containers) await podmanStatus('rm', '--force', '--volumes', '--time', '0', container);
  for (const volume of volumes) await podmanStatus('volume', 'rm', '--force', volume);
});

/** Starts a container of the image on the host's network; its name and base URL. */
async function start(env: Record<string, string>, volume?: string): Promise<{ name: string; baseUrl: string }> {
  const name = uniqueName('sps-test');
  const port = await freePort();
  const mounts = volume ? ['--volume', `${volume}:/data`] : [];
  const settings = Object.entries({ PORT: String(port), ...env }).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  containers.push(name);
  await podman('run', '--detach', '--name', name, '--network', 'host', ...settings, ...mounts, image);
  return { name, baseUrl: `http://127.0.0.1:${port}` };
}

describe('the image', () => {
  it('holds no dev dependency, build tool, test or browser', async () => {
    const unwanted = [
      'node_modules/vitest',
      'node_modules/typescript',
      'node_modules/prisma',
      'node_modules/playwright-core',
      'node_modules/vite',
      'test',
      'web/src',
    ];
    const script = `console.log(JSON.stringify(${JSON.stringify(unwanted)}.filter((path) => require('node:fs').existsSync(path))))`;
    expect(JSON.parse(await podman('run', '--rm', image, 'node', '-e', script))).toEqual([]);
    const tools = await podman('run', '--rm', image, 'sh', '-c', 'for tool in gcc cc make python3 chromium; do command -v $tool; done; true');
    expect(tools).toBe('');
  });
});

describe('the image on its own volume', () => {
  const volume = uniqueName('sps-test-data');
  volumes.push(volume);
  let container: { name: string; baseUrl: string };
  let apiKey: string;
  let postId: string;

  it('starts on an empty volume and answers /readyz, as a user other than root', async () => {
    container = await start({}, volume);
    const ms = await waitForReady(`${container.baseUrl}/readyz`, container.name);
    console.log(`first start to /readyz (initialising the embedded database): ${(ms / 1000).toFixed(1)} s`);
    // The server is PID 1 in the container: its real and effective user ids.
    const status = await podman('exec', container.name, 'cat', '/proc/1/status');
    const [real, effective] = status
      .match(/^Uid:\s+(\d+)\s+(\d+)/m)!
      .slice(1)
      .map(Number);
    expect(real).not.toBe(0);
    expect(effective).not.toBe(0);
    expect(await podman('exec', container.name, 'ls', '/data')).toMatch(/encryption-key[\s\S]*postgres/);
  });

  it('serves the dashboard and the networks’ pages the accounts page links', async () => {
    // The dashboard answers a browser (text/html); other clients get the API's JSON 404 there.
    expect((await fetch(`${container.baseUrl}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
    const page = await fetch(`${container.baseUrl}/docs/networks/x.md`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('# X');
  });

  it('is set up with sps inside it and publishes a post to the sandbox', async () => {
    const setup = await sps<{ workspaceId: string; apiKey: string }>(
      container.name,
      'setup',
      '--workspace',
      'Acme',
      '--email',
      'owner@acme.test',
      '--password',
      'a long password',
    );
    apiKey = setup.apiKey;
    const account = await sps<{ connectionId: string }>(
      container.name,
      'accounts',
      'connect',
      '--workspace',
      setup.workspaceId,
      '--provider',
      'sandbox',
      '--username',
      'acme',
    );
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${container.baseUrl}/v1/posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: { caption: 'Hello from the container' }, targets: [{ connectionId: account.connectionId, placement: 'feed' }] }),
    });
    expect(created.status).toBe(201);
    postId = ((await created.json()) as { data: { id: string } }).data.id;
    expect((await fetch(`${container.baseUrl}/v1/posts/${postId}/publish`, { method: 'POST', headers })).status).toBe(202);
    await expect.poll(async () => (await readPost()).status, { timeout: 30_000, interval: 250 }).toBe('published');
  });

  async function readPost(): Promise<{ status: string; targets: { remoteId?: string }[] }> {
    const answer = await fetch(`${container.baseUrl}/v1/posts/${postId}`, { headers: { authorization: `Bearer ${apiKey}` } });
    return ((await answer.json()) as { data: { status: string; targets: { remoteId?: string }[] } }).data;
  }

  it('passes its own health check', async () => {
    expect(await podmanStatus('healthcheck', 'run', container.name)).toBe(0);
  });

  it('stops on SIGTERM within 10 s with exit code 0', async () => {
    const started = performance.now();
    // podman stop sends the image's stop signal (SIGTERM), then SIGKILL after 10 s, which would exit 137.
    await podman('stop', '--time', '10', container.name);
    const seconds = (performance.now() - started) / 1000;
    console.log(`SIGTERM to exit: ${seconds.toFixed(1)} s`);
    expect(seconds).toBeLessThan(10);
    expect(await podman('inspect', '--format', '{{.State.ExitCode}}', container.name)).toBe('0');
  });

  it('keeps the post across a restart on the same volume', async () => {
    await podman('start', container.name);
    const ms = await waitForReady(`${container.baseUrl}/readyz`, container.name);
    console.log(`restart to /readyz: ${(ms / 1000).toFixed(1)} s`);
    const post = await readPost();
    expect(post.status).toBe('published');
    expect(post.targets[0]!.remoteId).toBeTruthy();
  });
});

describe('the image on an outside PostgreSQL (DATABASE_URL)', () => {
  it('migrates that database and keeps its data there, starting no database of its own', async () => {
    const server = inject('serverUrl');
    const name = uniqueName('sps_container').replace('-', '_');
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      const container = await start({ DATABASE_URL: url.toString(), ENCRYPTION_KEY: 'ab'.repeat(32) });
      await waitForReady(`${container.baseUrl}/readyz`, container.name);
      await sps(container.name, 'setup', '--workspace', 'Outside', '--email', 'owner@outside.test', '--password', 'a long password');
      const database = new pg.Client({ connectionString: url.toString() });
      await database.connect();
      try {
        const { rows } = await database.query('SELECT name FROM workspace');
        expect(rows).toEqual([{ name: 'Outside' }]);
      } finally {
        await database.end();
      }
      expect(await podman('exec', container.name, 'ls', '-A', '/data')).not.toMatch(/postgres/);
    } finally {
      await podmanStatus('rm', '--force', '--volumes', '--time', '0', ...containers.splice(-1));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('compose.yaml', () => {
  // Parsed as compose reads it (`<<` merges the roles' shared settings). podman-compose 1.0.3, Debian's, has no
  // `config` command, and an official postgres image cannot be pulled here to run it.
  const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        image?: string;
        build?: unknown;
        environment?: Record<string, string>;
        env_file?: unknown;
        volumes?: string[];
        healthcheck?: unknown;
        depends_on?: unknown;
      }
    >;
    volumes: Record<string, unknown>;
  };

  it('runs PostgreSQL with a volume and a health check, and the API and worker roles of one image on it', () => {
    const { postgres, api, worker } = compose.services;
    expect(postgres!.image).toMatch(/^postgres:18/);
    expect(postgres!.healthcheck).toBeDefined();
    expect(postgres!.volumes!.some((mount) => mount.endsWith(':/var/lib/postgresql'))).toBe(true);
    expect(api!.environment!.SPS_ROLE).toBe('api');
    expect(worker!.environment!.SPS_ROLE).toBe('worker');
    expect(worker!.image).toBe(api!.image);
    for (const role of [api!, worker!]) {
      expect(role.environment!.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(role.env_file).toBeDefined();
      expect(role.volumes).toContain('media:/data');
    }
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['postgres', 'media']));
  });
});
