// Builds the dashboard into web/dist, which the service serves at `/` (rest/dashboard.ts).
// `npm run web:dev` serves it with hot reload and forwards the API's paths to a service on :3000.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.SPS_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: Object.fromEntries(['/graphql', '/auth', '/v1', '/uploads', '/media-files'].map((path) => [path, api])) },
});
