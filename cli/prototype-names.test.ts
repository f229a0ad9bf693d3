// Names from the file that are Object.prototype members (op types, dims,
// tensors, attributes) are ordinary names everywhere: inference, every preset's
// plan, plain data for the worker, the page's bindings and links, and the CLI.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUrlParams } from '../src/app/url-params';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import { inspectReport } from '../src/model/inspect-report';
import { PROTOTYPE_DIMS, PROTOTYPE_NAMES, prototypeNamesModel } from '../src/model/testing/hostile-models';
import { toPlanFile } from '../src/planner/assembly/plan-file';
import { PRESET_NAMES, presetTarget } from '../src/planner/targets/presets';
import { withEntry } from '../src/store/bindings';
import { planForSettings } from '../src/worker/plan/settings';
import { run } from './testing/run-cli';

const DIMS = Object.fromEntries(PROTOTYPE_DIMS.map((name, i) => [name, i + 2]));

describe('names that are Object.prototype members', () => {
  const ir = decodeOnnx(prototypeNamesModel());

  it('bind as dims and size the input', () => {
    const model = inferShapes(ir, { dims: DIMS });
    expect(model.dims.map((d) => [d.name, d.value, d.source])).toEqual(PROTOTYPE_DIMS.map((name, i) => [name, i + 2, 'user']));
    expect(model.values.find((v) => v.name === 'x')?.shape).toEqual([2, 3, 4, 5, 6]);
    expect(model.nodes.map((n) => n.opType)).toEqual([...PROTOTYPE_NAMES, 'Relu', 'Relu']);
    expect(model.nodes[0]?.attributes && Object.keys(model.nodes[0].attributes).sort()).toEqual(['__proto__', 'constructor']);
    expect(inspectReport(model).opTypes).toEqual(Object.fromEntries([...PROTOTYPE_NAMES.map((op) => [op, 1]), ['Relu', 2]]));
  });

  it.each(PRESET_NAMES)('plan as plain data with the %s preset', (target) => {
    const model = inferShapes(ir, { dims: DIMS });
    const plan = planForSettings(model, { target, strategy: undefined });
    expect(plan.valid).toBe(true);
    expect(() => structuredClone({ model, plan })).not.toThrow();
    expect(plan.steps.every((s) => typeof s.kind === 'string')).toBe(true);
    const file = toPlanFile(model, plan, { model: 'proto.onnx', target, targetProfile: presetTarget(target), dims: DIMS });
    expect(Object.keys(file.settings.dims).sort()).toEqual([...PROTOTYPE_DIMS].sort());
  });

  it('are plain keys of the page bindings and of a link', () => {
    let dims: Readonly<Record<string, number>> = {};
    for (const name of PROTOTYPE_DIMS) dims = withEntry(dims, name, 7);
    expect(Object.keys(dims).sort()).toEqual([...PROTOTYPE_DIMS].sort());
    expect(Object.keys(withEntry(dims, '__proto__', undefined))).not.toContain('__proto__');
    const link = parseUrlParams('?dim.__proto__=5&dim.constructor=3');
    expect(Object.entries(link.dims)).toEqual([
      ['__proto__', 5],
      ['constructor', 3],
    ]);
  });

  it('work as --dim on the command line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-proto-'));
    const path = join(dir, 'proto.onnx');
    writeFileSync(path, prototypeNamesModel());
    const { code, out, err } = run(['plan', path, '--dim', '__proto__=5', '--dim', 'constructor=3', '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const dims = JSON.parse(out).assumptions.dims as { name: string; value: number }[];
    expect(dims.find((d) => d.name === '__proto__')?.value).toBe(5);
    expect(dims.find((d) => d.name === 'constructor')?.value).toBe(3);
  });
});
