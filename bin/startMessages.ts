// What `npm start` tells the person at the terminal: why it cannot listen, and what to do once it does.
import type { Config } from '../src/config.ts';

export function listenFailure(error: NodeJS.ErrnoException, config: Pick<Config, 'port' | 'host'>): string {
  const { port, host } = config;
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} is already in use on ${host}: another program is listening there. Stop that program, or start this service on another port with the PORT setting, e.g. PORT=${port + 1} npm start.`;
    case 'EACCES':
      return `No permission to listen on port ${port} (ports below 1024 need privileges). Choose another port with the PORT setting, e.g. PORT=3000 npm start.`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen on ${host}: this machine has no such address. Check the HOST setting (default 0.0.0.0).`;
    default:
      return `Cannot listen on ${host}:${port}: ${error.message}. Check the PORT and HOST settings.`;
  }
}

export function nextSteps(input: { publicBaseUrl: string; hasWorkspace: boolean }): string[] {
  const setup = "npx sps setup --workspace 'My team' --email you@example.com --password 'a long password'";
  return [
    ...(input.hasWorkspace ? [] : [`No workspace yet. Create one, with its owner and an API key: ${setup}`]),
    `API reference: ${input.publicBaseUrl}/v1/openapi.json (or .yaml); GraphQL, with GraphiQL in a browser: ${input.publicBaseUrl}/graphql`,
  ];
}
