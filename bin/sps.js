#!/usr/bin/env node
// The operator CLI as a bin: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
