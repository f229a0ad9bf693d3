// Shape-inference conformance over the ONNX backend node tests: runs every test
// dir under a root and summarizes how many graph outputs come out right.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCase, type CaseResult } from './conformance-case';

/** Where Debian's libonnx-testdata installs the node tests. */
export const DEFAULT_NODE_TESTS = '/usr/share/libonnx-testdata/data/node';

/** The summary of a conformance run. */
export interface ConformanceReport {
  readonly total: number; // test dirs run
  readonly right: number; // every graph output's shape inferred exactly
  readonly unsupported: number; // sequence/optional inputs or outputs: not comparable as shapes
  readonly share: number; // right / total, in percent
  readonly supportedShare: number; // right / (total − unsupported), in percent
  readonly dtypeWrong: readonly CaseResult[]; // right shapes but some output's data type differs
  readonly cases: readonly CaseResult[];
  readonly failuresByOp: ReadonlyMap<string, readonly CaseResult[]>; // wrong or error, by op type
}

/** Options of runConformance. */
export interface ConformanceOptions {
  /** Only test dirs whose name passes this filter. */
  readonly filter?: (name: string) => boolean;
}

/** Runs every test dir (a folder holding model.onnx) under `root`, in name order. */
export function runConformance(root: string, options: ConformanceOptions = {}): ConformanceReport {
  const names = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'model.onnx')))
    .filter((name) => options.filter?.(name) ?? true)
    .sort();
  const cases = names.map((name) => runCase(join(root, name), name));
  const right = cases.filter((c) => c.status === 'right').length;
  const unsupported = cases.filter((c) => c.status === 'unsupported').length;
  const failuresByOp = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.status !== 'wrong' && c.status !== 'error') continue;
    const list = failuresByOp.get(c.op) ?? [];
    list.push(c);
    failuresByOp.set(c.op, list);
  }
  const dtypeWrong = cases.filter((c) => c.status === 'right' && c.outputs.some((o) => o.inferredDtype !== o.expectedDtype));
  const percent = (n: number, d: number): number => (d === 0 ? 100 : Math.round((1000 * n) / d) / 10);
  return {
    total: cases.length,
    right,
    unsupported,
    share: percent(right, cases.length),
    supportedShare: percent(right, cases.length - unsupported),
    dtypeWrong,
    cases,
    failuresByOp,
  };
}
