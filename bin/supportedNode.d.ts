// Types of bin/supportedNode.js (plain JavaScript, see there).
export function minimumNodeVersion(): string;
export function unsupportedNodeMessage(version?: string): string | null;
export function requireSupportedNode(): void;
