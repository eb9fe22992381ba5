// Section `analytics`: 1,000,000 generated metric rows (11,112 targets over 90 days) in one workspace; times the
// JSON results for the 90-day period (grouped by day, network and post) and the CSV export, through the real
// server process, and samples its memory while the export streams.
import pg from 'pg';
import { benchRuntime, benchWorkspace, rssBytes, startChildServer, type Bench } from './support.ts';

const targets = 11_112;
const days = 90;
const MiB = 1024 * 1024;

export async function analyticsSection(bench: Bench): Promise<void> {
  const env = { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' };
  const runtime = await benchRuntime(env);
  const server = await startChildServer('bin/server.ts', env);
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    const { workspaceId, apiKey } = await benchWorkspace(runtime.services, 'analytics');
    const generated = performance.now();
    await db.query(
      `INSERT INTO target_metric_day (target_id, day, workspace_id, post_id, connection_id, provider, impressions, reach, likes, comments, shares, saves, clicks, video_views, collected_at)
       SELECT t.id, DATE '2026-06-01' + d, $1, t.post_id, t.connection_id, t.provider,
              (t.n * 7 + d) % 1000, (t.n * 5 + d) % 800, (t.n + d) % 50, (t.n + d) % 10, (t.n + d) % 5, (t.n + d) % 5, (t.n + d) % 20, (t.n + d) % 100, now()
       FROM (SELECT n, gen_random_uuid() AS id, gen_random_uuid() AS post_id,
                    ('00000000-0000-0000-0000-' || lpad((n % 40)::text, 12, '0'))::uuid AS connection_id,
                    (ARRAY['x','bluesky','mastodon','linkedin','instagram','facebook','threads','tiktok','youtube','pinterest'])[1 + n % 10] AS provider
             FROM generate_series(1, $2) AS n) t
       CROSS JOIN generate_series(0, $3 - 1) AS d`,
      [workspaceId, targets, days],
    );
    await db.query('ANALYZE target_metric_day');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM target_metric_day WHERE workspace_id = $1', [workspaceId]);
    console.log(`${rows[0].n.toLocaleString('en')} metric rows over ${days} days generated in ${((performance.now() - generated) / 1000).toFixed(1)} s`);

    const headers = { authorization: `Bearer ${apiKey}` };
    const period = 'from=2026-06-01&to=2026-08-29';
    for (const groupBy of ['day', 'provider', 'post']) {
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < 6; i++) {
        const began = performance.now();
        const response = await fetch(`${server.url}/v1/analytics?${period}&groupBy=${groupBy}`, { headers });
        const body = await response.text();
        if (response.status !== 200) throw new Error(`analytics answered ${response.status}: ${body.slice(0, 200)}`);
        times.push(performance.now() - began);
        size = JSON.parse(body).data.rows.length;
      }
      const measured = times.slice(1).sort((a, b) => a - b);
      console.log(
        `GET /v1/analytics groupBy=${groupBy.padEnd(8)} ${String(size).padStart(6)} rows: median ${measured[2]!.toFixed(0)} ms, max ${measured.at(-1)!.toFixed(0)} ms (target < 300 ms)`,
      );
    }

    for (const groupBy of ['day', 'post']) {
      const baseline = await rssBytes(server.pid);
      let peak = baseline;
      const sampler = setInterval(
        () =>
          void rssBytes(server.pid).then(
            (rss) => (peak = Math.max(peak, rss)),
            () => {},
          ),
        10,
      );
      const began = performance.now();
      const response = await fetch(`${server.url}/v1/analytics/export?${period}&groupBy=${groupBy}`, { headers });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      const ms = performance.now() - began;
      clearInterval(sampler);
      console.log(
        `GET /v1/analytics/export groupBy=${groupBy.padEnd(5)} ${lines - 1} rows, ${(bytes / 1024).toFixed(0)} KiB in ${ms.toFixed(0)} ms; server RSS ${(baseline / MiB).toFixed(0)} → peak ${(peak / MiB).toFixed(0)} MB (+${((peak - baseline) / MiB).toFixed(1)} MB)`,
      );
    }
  } finally {
    await db.end();
    await server.stop();
    await runtime.stop();
  }
}
