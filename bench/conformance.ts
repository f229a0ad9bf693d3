// `npm run conformance [-- DIR] [--verbose]`: shape-inference conformance on the
// ONNX backend node tests. Prints the figures and the failures by op type.

import { existsSync } from 'node:fs';
import { DEFAULT_NODE_TESTS, runConformance } from './conformance-run';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const root = args.find((a) => !a.startsWith('--')) ?? DEFAULT_NODE_TESTS;

if (!existsSync(root)) {
  console.log(`conformance: ${root} not found (apt-get install -y libonnx-testdata); nothing to run.`);
  process.exit(0);
}

const started = performance.now();
const report = runConformance(root);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

console.log(`node tests:      ${report.total} (${root}, ${seconds} s)`);
console.log(`fully right:     ${report.right}`);
console.log(`share:           ${report.share}%`);
console.log(`unsupported:     ${report.unsupported} (sequence/optional values)`);
console.log(`share compared:  ${report.supportedShare}% (tests whose outputs are all tensors)`);
console.log(`dtype wrong:     ${report.dtypeWrong.length}${report.dtypeWrong.length > 0 ? ` (${report.dtypeWrong.map((c) => c.name).join(', ')})` : ''}`);
const ops = [...report.failuresByOp].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
if (ops.length > 0) console.log('\nfailures by op:');
for (const [op, cases] of ops) {
  console.log(`  ${op} (${cases.length}): ${cases.map((c) => c.name).join(', ')}`);
  if (verbose) for (const c of cases) console.log(`      ${c.name}: ${c.status} ${c.detail}`);
}
if (verbose) {
  const unsupported = report.cases.filter((c) => c.status === 'unsupported');
  if (unsupported.length > 0) console.log(`\nunsupported: ${unsupported.map((c) => c.name).join(', ')}`);
}
