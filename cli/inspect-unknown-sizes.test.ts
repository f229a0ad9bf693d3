// What `inspect` says of the activations' total when some sizes are unknown:
// a lower bound, said so, never an unknown size counted as 0 bytes. Ultraface
// is skipped with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customOpModel } from '../src/model/testing/assumption-models';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const file = tempFiles('inspect-unknown');

const CUSTOM = file('custom.onnx', customOpModel());
const g = new GraphBuilder('unranked');
g.output(g.node('Relu', [g.input('x', 'float32', undefined)]), 'float32', undefined);
const UNRANKED = file('unranked.onnx', g.toBytes());
const ULTRAFACE = join(__dirname, '../../shared/models/ultraface_RFB-320.onnx');
const have = existsSync(ULTRAFACE);
if (!have) console.log(`cli inspect unknown sizes: ${ULTRAFACE} is absent; skipping`);

/** `inspect --json` of `argv`, parsed. */
function inspectJson(argv: readonly string[]): { activations: number; activationBytes: number; unknownActivations: number; unknownShapes: unknown[] } {
  const result = run(['inspect', ...argv, '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.out);
}

describe('inspect with sizes unknown', () => {
  it('gives the total of the sizes known as a lower bound, naming how many tensors it leaves out', () => {
    expect(run(['inspect', CUSTOM]).out).toMatch(/activations {2}4 tensors, ≥ 512 KiB in total \(2 tensors of unknown size not counted\)\n/);
    const json = inspectJson([CUSTOM]);
    expect(json.activationBytes).toBe(2 * 256 * 1024);
    expect(json.unknownActivations).toBe(2);
    expect(json.unknownActivations).toBe(json.unknownShapes.length);
    const given = ['--shape', 'mystery_out=1x64x32x32'];
    expect(run(['inspect', CUSTOM, ...given]).out).toMatch(/activations {2}4 tensors, 1\.00 MiB in total\n/);
    expect(inspectJson([CUSTOM, ...given]).unknownActivations).toBe(0);
  });

  it('gives no byte total when every size is unknown, rather than 0 B', () => {
    const out = run(['inspect', UNRANKED]).out;
    expect(out).toMatch(/activations {2}2 tensors, all of unknown size\n/);
    expect(out).not.toMatch(/0 B in total/);
    expect(inspectJson([UNRANKED])).toMatchObject({ activations: 2, activationBytes: 0, unknownActivations: 2 });
  });

  it.skipIf(!have)('ultraface at 120x160: two tensors of unknown size, the total an "at least"', () => {
    expect(run(['inspect', ULTRAFACE, '--shape', 'input=1x3x120x160']).out).toMatch(/activations {2}127 tensors, ≥ 6\.75 MiB in total \(2 tensors of unknown size not counted\)\n/);
    expect(inspectJson([ULTRAFACE, '--shape', 'input=1x3x120x160']).unknownActivations).toBe(2);
  });
});
