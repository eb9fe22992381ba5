// `npm run bench` runs every section in order; `npm run bench -- <section> ...` runs the ones named.
// Each section is an async function printing its own figures; all share one migrated database.
import { openBench, type Section } from './support.ts';
import { socialAccounts } from './socialAccounts.ts';
import { publishing } from './publishing.ts';
import { uploads } from './uploads.ts';
import { s3Uploads } from './s3Uploads.ts';
import { webhooks } from './webhooks.ts';
import { analyticsSection } from './analytics.ts';
import { bluesky } from './bluesky.ts';
import { ai } from './ai.ts';
import { graph } from './graph.ts';
import { mcp } from './mcp.ts';
import { dashboard } from './dashboard.ts';
import { startup } from './startup.ts';
import { scheduleScale } from './scheduleScale.ts';
import { importSection } from './import.ts';
import { redirect } from './redirect.ts';
import { inbox } from './inbox.ts';
import { linkedinInbox } from './linkedinInbox.ts';
import { xInbox } from './xInbox.ts';
import { youtubeInbox } from './youtubeInbox.ts';
import { threadsInbox } from './threadsInbox.ts';
import { blueskyInbox } from './blueskyInbox.ts';

const sections: Record<string, Section> = {
  'social-accounts': socialAccounts,
  publishing,
  'schedule-scale': scheduleScale,
  uploads,
  's3-uploads': s3Uploads,
  webhooks,
  analytics: analyticsSection,
  inbox,
  'inbox-youtube': youtubeInbox,
  'inbox-linkedin': linkedinInbox,
  'inbox-x': xInbox,
  'inbox-threads': threadsInbox,
  'inbox-bluesky': blueskyInbox,
  bluesky,
  ai,
  graph,
  mcp,
  dashboard,
  startup,
  import: importSection,
  redirect,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !Object.hasOwn(sections, name));
if (unknown.length) {
  console.error(`unknown bench section(s): ${unknown.join(', ')}; known: ${Object.keys(sections).join(', ')}`);
  process.exit(2);
}

const bench = await openBench();
try {
  for (const name of requested.length ? requested : Object.keys(sections)) {
    console.log(`\n== ${name}`);
    await sections[name]!(bench);
  }
} finally {
  await bench.stop();
}
