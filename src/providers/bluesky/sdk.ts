// @atproto/api is some 430 modules, over a second of CPU to load: it loads when a Bluesky account is first used, not
// at every start of a process. Once loaded, import() returns it at once.
export const atproto = () => import('@atproto/api');
