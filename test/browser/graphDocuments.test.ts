// Every GraphQL document the dashboard sends is valid against the graph as the code builds it, so a
// change to the graph that would break a page fails here, before any browser runs.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printGraphSchema } from '../../schema/index.ts';

const webSources = fileURLToPath(new URL('../../web/src/', import.meta.url));

async function dashboardDocuments(): Promise<{ file: string; document: string }[]> {
  const files = (await readdir(webSources, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
  const found: { file: string; document: string }[] = [];
  for (const file of files) {
    const source = await readFile(join(webSources, file), 'utf8');
    // A document may take in a fragment defined as a constant of the same file (`${CalendarPage}`).
    const constants = new Map([...source.matchAll(/const (\w+) = `([^`]*)`/g)].map((match) => [match[1]!, match[2]!]));
    for (const match of source.matchAll(/`\s*((?:query|mutation) [^`]*)`/g)) {
      found.push({ file, document: match[1]!.replace(/\$\{(\w+)\}/g, (text, name: string) => constants.get(name) ?? text) });
    }
  }
  return found;
}

describe('the dashboard’s GraphQL documents', () => {
  it("are all valid against the graph's schema", async () => {
    const schema = buildSchema(printGraphSchema());
    const documents = await dashboardDocuments();
    expect(documents.length).toBeGreaterThan(20);
    const invalid = documents.flatMap(({ file, document }) => validate(schema, parse(document)).map((error) => `${file}: ${error.message}`));
    expect(invalid).toEqual([]);
  });
});
