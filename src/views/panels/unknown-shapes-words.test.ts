import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { planForSettings } from '../../worker/plan/settings';
import { planAssumptions } from '../../store/assumptions';
import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { unknownShapesText } from './unknown-shapes-words';

const value = (name: string): InferredValue => ({ name, kind: 'activation', dtype: 1, dtypeName: 'float32', shape: [1], bytes: 4, producer: undefined, consumers: [] });
const graph = (values: readonly string[], nodes: readonly InferredNode[] = []): InferredGraph => ({ name: 'g', nodes, values: values.map(value), inputs: [], outputs: [] });
const node = (opType: string, name: string, bodies: readonly InferredGraph[]): InferredNode => ({ name, opType, domain: '', inputs: [], outputs: [], subgraphs: bodies, constant: false });

describe("the model card's unknown shapes", () => {
  it('says none, or counts those of the main graph', () => {
    expect(unknownShapesText(graph(['a', 'b']), [])).toBe('none');
    expect(unknownShapesText(graph(['a', 'b']), ['a', 'b'])).toBe('2');
    // The bodies are counted too: none there either is none.
    expect(unknownShapesText(graph(['a'], [node('If', 'if', [graph(['t'])])]), [])).toBe('none');
    expect(unknownShapesText(graph(['a'], [node('If', 'if', [graph(['t'])])]), ['a'])).toBe('1');
  });

  it('names the If/Loop/Scan node whose body holds a tensor of unknown size, not "none"', () => {
    const model = graph(['a'], [node('Loop', 'loop', [graph(['t', 'u'], [node('If', 'inner', [graph(['deep'])])])]), node('Scan', '', [graph(['s'])])]);
    expect(unknownShapesText(model, ['t'])).toBe("1 in the body of Loop 'loop'");
    expect(unknownShapesText(model, ['a', 'deep', 's'])).toBe("1 in the main graph; 1 in the body of Loop 'loop'; 1 in the body of Scan");
    const many = graph([], ['p', 'q', 'r'].map((n) => node('If', n, [graph([`${n}.x`])])));
    expect(unknownShapesText(many, ['p.x', 'q.x', 'r.x'])).toBe('3 in If/Loop/Scan bodies');
    // A tensor no body names is still counted, never dropped to "none".
    expect(unknownShapesText(model, ['elsewhere'])).toBe('1 in If/Loop/Scan bodies');
  });

  it("agrees with the plan of ONNX's test_loop11, whose one tensor of unknown size is inside the Loop's body", () => {
    const file = '/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx';
    if (!existsSync(file)) return void console.log('unknown shapes: libonnx-testdata is absent; skipping test_loop11');
    const model = inferShapes(decodeModel(new Uint8Array(readFileSync(file))), { dims: {} });
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    const unknown = planAssumptions(plan, model).unknown.map((u) => u.tensor);
    expect(unknown).toEqual(['slice_out']);
    expect(unknownShapesText(model, unknown)).toMatch(/^1 in the body of Loop/);
  });
});
