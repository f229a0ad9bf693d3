// The warning for nodes of a domain the model does not import: built models
// (custom domain, the default domain, subgraphs) and the shared GPT-2 model cut
// short by the bytes of its last opset import.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './decode-onnx';
import { MISSING_OPSET } from './decode-domains';
import type { IrModel } from '../ir';
import { GraphBuilder, encodeModel } from '../testing/onnx-writer';

const missing = (model: IrModel): readonly string[] => model.diagnostics.filter((d) => d.code === MISSING_OPSET).map((d) => d.message);

/** Relu, then two com.microsoft nodes. */
function contribGraph(): GraphBuilder {
  const g = new GraphBuilder();
  const y = g.node('Relu', [g.input('x', 'float32', [2, 4])]);
  const z = g.node('FastGelu', [y], {}, { domain: 'com.microsoft' });
  g.output(g.node('BiasGelu', [z, z], {}, { domain: 'com.microsoft' }), 'float32', [2, 4]);
  return g;
}

describe('decodeOnnx: domains without an opset import', () => {
  it('warns once per domain, with its name, its node count and that the file may be cut short', () => {
    const model = decodeOnnx(contribGraph().toBytes());
    expect(missing(model)).toEqual([
      "2 nodes use domain 'com.microsoft' (FastGelu, BiasGelu), which the model does not import (no opset_import entry): " +
        'the file may be cut short or the model is invalid; ONNX Runtime refuses it',
    ]);
    expect(model.diagnostics.find((d) => d.code === MISSING_OPSET)?.node).toBe('FastGelu_1');
    expect(model.graph.nodes).toHaveLength(3);
  });

  it('says nothing when every domain is imported, the default one under either spelling', () => {
    expect(missing(decodeOnnx(contribGraph().toBytes({ opsets: { 'com.microsoft': 1 } })))).toEqual([]);
    expect(missing(decodeOnnx(contribGraph().toBytes({ opsets: { 'com.microsoft': 1 }, defaultDomain: 'ai.onnx' })))).toEqual([]);
  });

  it('holds the default domain to the same rule', () => {
    const proto = contribGraph().toModelProto();
    const bytes = encodeModel({ ...proto, opsetImport: [{ domain: 'com.microsoft', version: 1 }] });
    expect(missing(decodeOnnx(bytes))).toEqual([
      "1 node uses the default domain 'ai.onnx' (Relu), which the model does not import (no opset_import entry): " +
        'the file may be cut short or the model is invalid; ONNX Runtime refuses it',
    ]);
  });

  it('counts the nodes of subgraphs', () => {
    const g = new GraphBuilder('main');
    const x = g.input('x', 'float32', [2]);
    const branch = (name: string): GraphBuilder => {
      const b = new GraphBuilder(name);
      b.output(b.node('FastGelu', [x], {}, { domain: 'com.microsoft' }), 'float32', [2]);
      return b;
    };
    g.output(g.node('If', [g.input('c', 'bool', [])], { then_branch: branch('then'), else_branch: branch('else') }), 'float32', [2]);
    expect(missing(decodeOnnx(g.toBytes()))).toEqual([expect.stringMatching(/^2 nodes use domain 'com\.microsoft' \(FastGelu\)/)]);
  });
});

const GPT2 = join(__dirname, '../../../../shared/models/tiny-random-gpt2-fp32-past.onnx');
if (!existsSync(GPT2)) console.log(`decode-domains: ${GPT2} is absent; skipping the cut-file test`);

describe.skipIf(!existsSync(GPT2))('decodeOnnx: a real model cut short', () => {
  it('warns about the com.microsoft nodes of tiny GPT-2 cut 19 bytes short, and not of the whole file', () => {
    const bytes = readFileSync(GPT2);
    expect(missing(decodeOnnx(bytes))).toEqual([]);
    const cut = decodeOnnx(bytes.subarray(0, bytes.byteLength - 19));
    expect(cut.opsets).toEqual([{ domain: '', version: 11 }]);
    expect(missing(cut)).toEqual([expect.stringMatching(/^21 nodes use domain 'com\.microsoft' \(.*the file may be cut short/)]);
  });
});
