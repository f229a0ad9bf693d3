// `plan` carries what decoding and inference noted, as `inspect` does: a plan
// resting on a shape that disagrees with the model says so.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { planJson, run } from './testing/run-cli';

describe('plan keeps the notes of inference', () => {
  it('a --shape of the wrong rank is in plan --json diagnostics, as in inspect', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-diag-')), 'm.onnx');
    writeFileSync(path, buildSampleModel());
    const inspect = JSON.parse(run(['inspect', path, '--shape', 'image=1x3x4', '--json']).out);
    const noted = inspect.diagnostics.map((d: { code: string }) => d.code);
    expect(noted.length).toBeGreaterThan(0);
    const plan = planJson([path, '--shape', 'image=1x3x4']);
    const codes = plan.diagnostics.map((d: { code: string }) => d.code);
    for (const code of noted) expect(codes).toContain(code);
  });

  it('a --shape that sets a symbolic axis apart from the dim that still sizes other inputs says so; one against declared numbers too', () => {
    // batch_size and sequence_length (through the total length) size attention_mask and the past inputs: the plan holds two values of each
    const llama = join(__dirname, '../../shared/models/tiny-llama-fp32-missing-external-data.onnx');
    const given = planJson([llama, '--shape', 'input_ids=2x16']);
    expect(given.diagnostics.filter((d: { code: string }) => d.code === 'shape-override')).toEqual([
      {
        code: 'shape-override',
        message: "'input_ids' axis 0 is batch_size, 1 (a default) elsewhere in the plan; axis 1 is sequence_length, 128 (a default) elsewhere in the plan; the given shape 2×16 is used for 'input_ids' alone",
      },
    ]);
    // the same values as the dims: nothing to say
    const same = planJson([llama, '--shape', 'input_ids=1x128']);
    expect(same.diagnostics.filter((d: { code: string }) => d.code === 'shape-override')).toEqual([]);
    const face = join(__dirname, '../../shared/models/ultraface_RFB-320.onnx');
    const other = planJson([face, '--shape', 'input=1x3x480x640']);
    expect(other.diagnostics).toContainEqual({ code: 'shape-override', message: "'input' is declared as 1×3×240×320; the given shape 1×3×480×640 is used" });
  });
});
