// Runs every check of the project in order (types, lint, unit tests, build,
// end-to-end tests in Chromium) and closes with one line that counts the tests:
// "tests: N passed, N failed, N skipped". Exits non-zero when any stage fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

// Not Playwright's outputDir (test-results), which it empties when it starts.
const reports = 'test-reports';
mkdirSync(reports, { recursive: true });
const unitReport = `${reports}/unit.json`;
const e2eReport = `${reports}/e2e.json`;

const stages = [
  ['types', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`]],
  ['build', 'npm', ['run', '-s', 'build']],
  ['e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }],
];

const failedStages = [];
for (const [name, cmd, args, env] of stages) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failedStages.push(name);
}

const counts = { passed: 0, failed: 0, skipped: 0 };
countVitest(unitReport, counts);
countPlaywright(e2eReport, counts);
for (const title of flakyTests(e2eReport)) console.log(`flaky (failed, then passed on its retry): ${title}`);
if (failedStages.length > 0) console.log(`\nfailed stages: ${failedStages.join(', ')}`);
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failedStages.length > 0 || counts.failed > 0 ? 1 : 0);

function readJson(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function countVitest(path, into) {
  const report = readJson(path);
  if (!report) return;
  into.passed += report.numPassedTests ?? 0;
  into.failed += report.numFailedTests ?? 0;
  into.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(path, into) {
  const stats = readJson(path)?.stats;
  if (!stats) return;
  into.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  into.failed += stats.unexpected ?? 0;
  into.skipped += stats.skipped ?? 0;
}

/** The end-to-end tests that failed and then passed on a retry: "file:line › title". */
function flakyTests(path) {
  const out = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) if (test.status === 'flaky') out.push(`${spec.file}:${spec.line} › ${[...trail, spec.title].join(' › ')}`);
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...trail, child.title] : trail);
  };
  for (const suite of readJson(path)?.suites ?? []) walk(suite, []);
  return out;
}
