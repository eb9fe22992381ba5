// Prints the ten slowest test files of the vitest JSON reports named on the command line (one per tier), each with
// its wall time and tier, and every tier's total of file time (files of a tier run side by side, so this exceeds
// the tier's wall time that .ci/run prints).
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';

const files = process.argv.slice(2).flatMap((report) => {
  const tier = basename(report, '.json');
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  return testResults.map((file) => ({ tier, name: relative(process.cwd(), file.name), seconds: (file.endTime - file.startTime) / 1000 }));
});
const tiers = [...new Set(files.map((file) => file.tier))];
for (const tier of tiers) {
  const ofTier = files.filter((file) => file.tier === tier);
  const total = ofTier.reduce((sum, file) => sum + file.seconds, 0);
  console.log(`ci: ${tier}: ${ofTier.length} files, ${total.toFixed(0)} s of file time`);
}
console.log('ci: the ten slowest test files:');
for (const file of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.tier.padEnd(7)} ${file.name}`);
}
