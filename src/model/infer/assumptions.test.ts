import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { InferredModel, InferredValue } from '../inferred';
import { inferShapes } from './shapes';
import { irGraph } from '../testing/ir-builder';
import type { DeclaredDim } from '../ir';

const valueOf = (model: InferredModel, name: string): InferredValue => {
  const value = model.values.find((v) => v.name === name);
  if (value === undefined) throw new Error(`no value ${name}`);
  return value;
};

const dim = (model: InferredModel, name: string) => {
  const d = model.dims.find((b) => b.name === name);
  if (d === undefined) throw new Error(`no dim ${name}; have ${model.dims.map((b) => b.name).join(', ')}`);
  return d;
};

/** A detector-like graph: image input with unnamed batch and spatial dims, a conv and (optionally) an upsampling head. */
function detector(shape: readonly DeclaredDim[], dense: boolean) {
  const g = irGraph()
    .input('image', DT.FLOAT, shape)
    .initializer('w', DT.FLOAT, [8, 3, 3, 3])
    .node('Conv', ['image', 'w'], ['feat'], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] });
  if (dense) {
    g.initializer('scales', DT.FLOAT, [4], [1, 1, 2, 2]).node('Resize', ['feat', '', 'scales'], ['up'], { mode: 'nearest' }).output('up');
  } else g.output('feat');
  return g.model();
}

describe('dims by the input axes they size', () => {
  it('defaults the unnamed spatial axes of a [-1,3,-1,-1] image to a detector size, not 1', () => {
    const model = inferShapes(detector([-1, 3, -1, -1], true));
    expect(dim(model, 'image:0')).toMatchObject({ value: 1, source: 'default', axes: ['image:0'], rule: expect.stringMatching(/batch/) });
    expect(dim(model, 'image:2')).toMatchObject({ value: 640, axes: ['image:2'], rule: expect.stringMatching(/dense-prediction/) });
    expect(dim(model, 'image:3').value).toBe(640);
    expect(valueOf(model, 'up').shape).toEqual([1, 8, 640, 640]);
  });

  it('gives opaque exporter names (p2o.DynamicDimension.N) the role of the axis they sit on', () => {
    const model = inferShapes(detector(['p2o.DynamicDimension.0', 3, 'p2o.DynamicDimension.1', 'p2o.DynamicDimension.2'], false));
    expect(dim(model, 'p2o.DynamicDimension.0')).toMatchObject({ value: 1, axes: ['image:0'] });
    expect(dim(model, 'p2o.DynamicDimension.1')).toMatchObject({ value: 224, axes: ['image:2'], rule: expect.stringMatching(/typical image size/) });
    expect(valueOf(model, 'feat').shape).toEqual([1, 8, 112, 112]);
  });

  it('binds a named dim through an input axis it sizes', () => {
    const model = inferShapes(detector(['p2o.DynamicDimension.0', 3, 'p2o.DynamicDimension.1', 'p2o.DynamicDimension.2'], false), {
      dims: { 'image:2': 96, 'image:3': 64 },
    });
    expect(dim(model, 'p2o.DynamicDimension.1')).toMatchObject({ value: 96, source: 'user' });
    expect(valueOf(model, 'feat').shape).toEqual([1, 8, 48, 32]);
  });

  it('takes the image size from the model metadata when it has one', () => {
    const model = inferShapes({ ...detector([1, 3, 'h', 'w'], true), metadata: { imgsz: '[320, 320]' } });
    expect(dim(model, 'h')).toMatchObject({ value: 320, rule: expect.stringMatching(/metadata \('imgsz'\)/) });
  });

  it('accepts 0 as a dim value (a decoder with no past yet)', () => {
    const model = inferShapes(
      irGraph().input('past', DT.FLOAT, [1, 'past_len', 4]).node('Relu', ['past'], ['y']).output('y').model(),
      { dims: { past_len: 0 } },
    );
    expect(dim(model, 'past_len')).toMatchObject({ value: 0, source: 'user' });
    expect(valueOf(model, 'y').shape).toEqual([1, 0, 4]);
    expect(model.diagnostics.filter((d) => d.code === 'bad-dim')).toEqual([]);
  });

  it('raises an image default that makes a shape impossible, and says why', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [1, 3, 'H', 'W'])
        .initializer('w', DT.FLOAT, [4, 3, 300, 300])
        .node('Conv', ['x', 'w'], ['y'], { kernel_shape: [300, 300] })
        .output('y')
        .model(),
    );
    expect(dim(model, 'H')).toMatchObject({ value: 640, rule: expect.stringMatching(/raised to 640 because the first choice left 'y' without a size/) });
    expect(valueOf(model, 'y').shape).toEqual([1, 4, 341, 341]);
  });

  it('keeps the first choice when raising does not help', () => {
    const model = inferShapes(
      irGraph().input('x', DT.FLOAT, [1, 3, 'H', 'W']).node('Mystery', ['x'], ['y'], {}, { domain: 'example' }).output('y').model(18, { example: 1 }),
    );
    expect(dim(model, 'H').value).toBe(224);
  });
});

describe('user-given shapes', () => {
  const custom = () =>
    irGraph()
      .input('x', DT.FLOAT, [1, 8])
      .node('Mystery', ['x'], ['m'], {}, { domain: 'example' })
      .node('Relu', ['m'], ['y'])
      .output('y')
      .model(18, { example: 1 });

  it('replaces an unknown shape and propagates it downstream', () => {
    expect(valueOf(inferShapes(custom()), 'y').bytes).toBeUndefined();
    const model = inferShapes(custom(), { shapes: { m: [2, 16] } });
    expect(valueOf(model, 'm')).toMatchObject({ shape: [2, 16], bytes: 128 });
    expect(valueOf(model, 'y').shape).toEqual([2, 16]);
    expect(model.shapes).toEqual({ m: [2, 16] });
  });

  it('overrides a graph input and reports a disagreement with a known shape', () => {
    const model = inferShapes(custom(), { shapes: { x: [4, 8] } });
    expect(valueOf(model, 'x').shape).toEqual([4, 8]);
    expect(model.diagnostics).toContainEqual(expect.objectContaining({ code: 'shape-override', message: expect.stringContaining("'x'") }));
  });

  /** x: [N, C] -> Relu -> y; C declared as a number when `c` is given. */
  const symbolic = (c: DeclaredDim = 'C') => irGraph().input('x', DT.FLOAT, ['N', c]).node('Relu', ['x'], ['y']).output('y').model();
  const overrides = (model: InferredModel) => model.diagnostics.filter((d) => d.code === 'shape-override');

  it('does not call a shape given for symbolic axes an override of the default dims it replaces', () => {
    const model = inferShapes(symbolic(), { shapes: { x: [4, 8] } });
    expect(valueOf(model, 'y').shape).toEqual([4, 8]);
    expect(overrides(model)).toEqual([]);
    expect(overrides(inferShapes(symbolic(), { shapes: { x: [4, 8] }, dims: { N: 2 } }))).toEqual([]);
  });

  it("says a node output's given shape replaces one inferred from the default dims, what it is used for, and that the dims keep their values", () => {
    const chain = () => irGraph().input('x', DT.FLOAT, ['N', 8]).node('Relu', ['x'], ['r']).node('Sigmoid', ['r'], ['y']).output('y').model();
    const model = inferShapes(chain(), { shapes: { r: [4, 8] } });
    expect([valueOf(model, 'x').shape, valueOf(model, 'r').shape, valueOf(model, 'y').shape]).toEqual([[1, 8], [4, 8], [4, 8]]);
    expect(overrides(model)).toEqual([
      expect.objectContaining({ message: "'r' is inferred as 1×8 from N=1 (a default); the given shape 4×8 is used for 'r' and what it feeds; N stays 1 elsewhere in the plan" }),
    ]);
    expect(overrides(inferShapes(chain(), { shapes: { r: [4, 8] }, dims: { N: 2 } }))).toEqual([
      expect.objectContaining({ message: "'r' is inferred as 2×8 from N=2 (given); the given shape 4×8 is used for 'r' and what it feeds; N stays 2 elsewhere in the plan" }),
    ]);
    // the input given a shape too: its dim sizes nothing, so the inferred shape rests on no dim
    expect(overrides(inferShapes(chain(), { shapes: { x: [2, 8], r: [4, 8] } }))).toEqual([
      expect.objectContaining({ message: "'r' is inferred as 2×8; the given shape 4×8 is used for 'r' and what it feeds" }),
    ]);
    // the shape the defaults give: nothing replaced, nothing to say
    expect(overrides(inferShapes(chain(), { shapes: { r: [1, 8] } }))).toEqual([]);
  });

  it('reports a given shape against the axes the file declares as numbers, and against its rank', () => {
    expect(overrides(inferShapes(symbolic(16), { shapes: { x: [4, 8] } }))).toEqual([
      expect.objectContaining({ message: "'x' is declared as N×16; the given shape 4×8 is used" }),
    ]);
    expect(overrides(inferShapes(symbolic(8), { shapes: { x: [4, 8] } }))).toEqual([]);
    expect(overrides(inferShapes(symbolic(), { shapes: { x: [4, 8, 2] } }))).toHaveLength(1);
  });
});

describe("the file's declared shapes", () => {
  /** A channel shuffle reshaped to a constant made for a 16×16 input, as exports of fixed-size detectors are; the file declares every value at that size. */
  const shuffle = () =>
    irGraph()
      .input('image', DT.FLOAT, [1, 4, 16, 16])
      .initializer('to', DT.INT64, [3], [2, 2, 256])
      .node('Reshape', ['image', 'to'], ['r'])
      .node('Relu', ['r'], ['y'])
      .info('r', DT.FLOAT, [2, 2, 256])
      .output('y', DT.FLOAT, [2, 2, 256])
      .model();

  it('fill what a rule could not find at the input shapes the file was made for', () => {
    const model = inferShapes(shuffle());
    expect(valueOf(model, 'y')).toMatchObject({ shape: [2, 2, 256], bytes: 4096 });
    expect(model.values.filter((v) => v.bytes === undefined)).toEqual([]);
  });

  it('do not fill it below an input given another shape: they describe the other size, so the value stays unknown', () => {
    // At 8×8 the constant no longer matches the element count: the model cannot run, and its 16×16 shapes must not be planned as if it could.
    const model = inferShapes(shuffle(), { shapes: { image: [1, 4, 8, 8] } });
    expect(valueOf(model, 'r').bytes).toBeUndefined();
    expect(valueOf(model, 'y').bytes).toBeUndefined();
    expect(valueOf(model, 'r').unknownReason).toMatch(/cannot reshape.*other input shapes/);
  });

  it('still give the dtype, and still fill a value that does not depend on the changed input', () => {
    const model = inferShapes(
      irGraph()
        .input('image', DT.FLOAT, [1, 4, 16, 16])
        .input('other', DT.FLOAT, [3])
        .node('Mystery', ['image'], ['m'], {}, { domain: 'example' })
        .node('Mystery', ['other'], ['n'], {}, { domain: 'example' })
        .info('m', DT.FLOAT16, [1, 1024])
        .info('n', DT.FLOAT, [3])
        .output('m')
        .output('n')
        .model(18, { example: 1 }),
      { shapes: { image: [1, 4, 8, 8] } },
    );
    expect(valueOf(model, 'm')).toMatchObject({ dtype: DT.FLOAT16, bytes: undefined });
    expect(valueOf(model, 'n')).toMatchObject({ shape: [3], bytes: 12 });
  });
});

describe('an If decided by a graph input', () => {
  /** Voice-activity style: the whole network inside an If on the sample rate; 16 kHz and 8 kHz branches differ in size. */
  const vad = () => {
    const branch = (name: string, width: number) =>
      irGraph(name)
        .initializer(`${name}_w`, DT.FLOAT, [width, 64])
        .node('MatMul', ['audio', `${name}_w`], [`${name}_h`])
        .node('Relu', [`${name}_h`], [`${name}_out`])
        .output(`${name}_out`)
        .graph();
    return irGraph()
      .input('audio', DT.FLOAT, [1, 'frames', 256])
      .input('sr', DT.INT64, [1])
      .initializer('k16', DT.INT64, [1], [16000])
      .node('Equal', ['sr', 'k16'], ['is16'])
      .node('Squeeze', ['is16'], ['cond'])
      .node('If', ['cond'], ['probs'], { then_branch: branch('wide', 256), else_branch: branch('narrow', 256) })
      .output('probs')
      .model();
  };

  it('unbound: assumes the larger branch and names the input that decides it', () => {
    const model = inferShapes(vad());
    const ifNode = model.nodes.find((n) => n.opType === 'If');
    expect(ifNode?.branch).toMatchObject({ node: ifNode?.name, taken: 'both', reason: expect.stringMatching(/graph input 'sr'/) });
    expect(valueOf(model, 'probs').shape).toEqual([1, 128, 64]);
  });

  it('bound: the input value picks the branch and nothing is assumed', () => {
    for (const [sr, taken] of [[16000, 0], [8000, 1]] as const) {
      const model = inferShapes(vad(), { inputValues: { sr: [sr] } });
      const ifNode = model.nodes.find((n) => n.opType === 'If');
      expect(ifNode?.branch).toBeUndefined();
      expect(ifNode?.takenBranch).toBe(taken);
      expect(valueOf(model, 'sr').kind).toBe('input');
      expect(model.inputValues).toEqual({ sr: [sr] });
    }
  });
});
