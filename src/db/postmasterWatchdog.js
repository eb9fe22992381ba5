// The embedded PostgreSQL's watchdog: src/db/server.ts starts one beside each postmaster it starts, and this stops
// the postmaster when the process that started it ends without stopping it (a crash, kill -9, a terminal's hangup).
// The postmaster runs in a session of its own (so that Ctrl-C cannot cut the server's graceful shutdown short), so
// nothing else would stop it. Plain JavaScript: `node` runs it alone, without tsx.
//
// argv[2]: the postmaster's pid. stdin: a pipe from the process that started it, which the kernel closes when that
// process ends, however it ends. That process kills this one as soon as the postmaster exits, so the pid is never
// another process's by the time this signals it.
const postmasterPid = Number(process.argv[2]);

// Signals meant for the server's process group (Ctrl-C, hangup, a SIGTERM to the group) must not end the watchdog
// while the server's own shutdown is still running.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});

process.stdin.on('close', () => {
  try {
    // PostgreSQL's fast shutdown, as a clean stop asks for: roll back what is open, checkpoint, exit.
    process.kill(postmasterPid, 'SIGINT');
  } catch {
    // It has exited already.
  }
  process.exit(0);
});
process.stdin.resume();
