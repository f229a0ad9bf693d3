// The layout of the CLI's text: labels and columns stay in line whatever a
// region or tensor is called, sizes and counts read as a person writes them.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { run } from './testing/run-cli';

function file(name: string, data: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-layout-')), name);
  writeFileSync(path, data);
  return path;
}

/** x -> Relu -> a tensor per name, in a chain -> the last is the output. */
function chain(names: readonly string[], dims: readonly (number | string)[] = [1, 1000]): string {
  const g = new GraphBuilder('chain');
  let t = g.input('x', 'float32', dims);
  for (const name of names) t = g.nodeOutputs('Relu', [t], [name])[0]!;
  g.output(t);
  return file('chain.onnx', g.toBytes({ opset: 17 }));
}

describe('text tables', () => {
  it('keeps a region name longer than the label column two spaces from its figures', () => {
    const { out } = run(['plan', chain(['a']), '--target', 'mcu']);
    expect(out).toMatch(/^ {2}region ext-ram {2}[\d.]+ [KM]?i?B \(bound/m);
    expect(out).toMatch(/^ {2}region sram {5}[\d.]+ [KM]?i?B \(bound/m);
  });

  it('puts the tensor name last, so a long one leaves op, dtype, shape and bytes in line', () => {
    const long = `/model/layers.0/self_attn/rotary_emb/${'x'.repeat(40)}/Constant_output_0`;
    const { out } = run(['inspect', chain([long, 'short'])]);
    const rows = out.split('\n').filter((line) => /^Relu /.test(line));
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.indexOf('KiB')))).toHaveProperty('size', 1);
    expect(rows[0]).toMatch(/^Relu +float32 +1×1000 +3\.91 KiB {2}\/model\/layers\.0\/self_attn\/rotary_emb\/x{40}\/Constant_output_0$/);
  });
});

describe('figures and counts', () => {
  it('says one buffer and one value in the singular', () => {
    const csv = file('one.csv', 'id,lower,upper,size\na,0,1,33\n');
    const solved = run(['solve', csv]);
    expect(solved.out).toMatch(/: 1 buffer, strategy /);
    // a peak under 1 KiB is its exact figure already: no "(33)" after it
    expect(solved.out).toMatch(/^ {2}peak {10}33 B$/m);
    const plan = run(['plan', chain(['a'])]);
    expect(plan.out).toMatch(/: target cpu, strategy \w+, 1 step, 2 buffers\n/);
    const sweep = run(['sweep', chain(['a'], ['batch', 8]), '--dim', 'batch=2..2']);
    expect(sweep.out).toMatch(/: sweep of batch, 1 value\n/);
  });

  it('writes the --ascii header figures with digit separators', () => {
    const { out } = run(['plan', chain(['a', 'b', 'c'], [1, 4000]), '--ascii']);
    expect(out).toMatch(/^region ram: peak [\d.]+ KiB \(\d{2},\d{3} B\), lower bound [\d.]+ KiB \(\d{2},\d{3} B\), one character = /m);
  });

  it('writes an element count past 2^53 as a power of ten, not in exponent notation', () => {
    const g = new GraphBuilder('reshape');
    const x = g.input('x', 'float32', [1, 784]);
    const shape = g.initializer('shape', 'int64', [2], [1, 784]);
    g.output(g.nodeOutputs('Reshape', [x, shape], ['y'])[0]!);
    const { out } = run(['inspect', file('reshape.onnx', g.toBytes({ opset: 17 })), '--shape', 'x=99999999x99999999x4444444']);
    expect(out).toContain('(about 4.44 × 10^22 elements)');
    expect(out).not.toMatch(/\de\+\d/);
  });
});
