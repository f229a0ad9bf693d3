import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { dataDependentRules } from './data-dependent';
import { attr, f32, fact, factsOf, firstFact, i64, runRule } from '../testing/shape-rule-context';

describe('NonZero', () => {
  it('gives the upper bound [rank, numel] for unknown data', () => {
    const out = firstFact(runRule(dataDependentRules, 'NonZero', { inputs: [f32([3, 4])] }));
    expect(out).toMatchObject({ dtype: DT.INT64, shape: [2, 12], upperBound: true });
  });

  it('is exact for constant data', () => {
    const out = firstFact(runRule(dataDependentRules, 'NonZero', { inputs: [i64([0, 3, 0, 5], [2, 2])] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [0, 1, 1, 1] });
  });
});

describe('NonMaxSuppression', () => {
  const boxes = f32([2, 100, 4]);
  const scores = f32([2, 3, 100]);

  it('bounds the selection by batches × classes × min(max per class, boxes)', () => {
    const out = firstFact(runRule(dataDependentRules, 'NonMaxSuppression', { inputs: [boxes, scores, i64([10], [])] }));
    expect(out).toMatchObject({ dtype: DT.INT64, shape: [60, 3], upperBound: true });
    const capped = firstFact(runRule(dataDependentRules, 'NonMaxSuppression', { inputs: [boxes, scores, i64([500], [])] }));
    expect(capped.shape).toEqual([600, 3]);
  });

  it('does not loop over batches × classes of empty constant boxes and scores', () => {
    // No boxes: both tensors are empty and so constants, whatever their batch and class dims.
    const empty = [fact(DT.FLOAT, [2 ** 20, 0, 4], []), fact(DT.FLOAT, [2 ** 20, 2 ** 20, 0], []), i64([5], [])];
    const out = firstFact(runRule(dataDependentRules, 'NonMaxSuppression', { inputs: empty }));
    expect(out).toMatchObject({ shape: [0, 3], upperBound: true });
  });

  it('selects nothing without max_output_boxes_per_class', () => {
    expect(firstFact(runRule(dataDependentRules, 'NonMaxSuppression', { inputs: [boxes, scores] })).shape).toEqual([0, 3]);
  });

  it('runs the selection when boxes, scores and thresholds are constants', () => {
    const corners = [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101];
    const constBoxes = fact(DT.FLOAT, [1, 6, 4], corners);
    const constScores = fact(DT.FLOAT, [1, 1, 6], [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]);
    const run = (scoreThreshold: number) =>
      firstFact(
        runRule(dataDependentRules, 'NonMaxSuppression', {
          inputs: [constBoxes, constScores, i64([3]), fact(DT.FLOAT, [1], [0.5]), fact(DT.FLOAT, [1], [scoreThreshold])],
        }),
      );
    // The ONNX spec's suppress_by_IOU example: box 3 wins, 4 overlaps it, 1 and 2 overlap 0.
    expect(run(0)).toEqual({ dtype: DT.INT64, shape: [3, 3], value: [0, 0, 3, 0, 0, 0, 0, 0, 5] });
    expect(run(0.4).value).toEqual([0, 0, 3, 0, 0, 0]);
  });

  it('says why when the maximum is not constant', () => {
    const out = firstFact(runRule(dataDependentRules, 'NonMaxSuppression', { inputs: [boxes, scores, fact(DT.INT64, [1])] }));
    expect(out.shape).toEqual([undefined, 3]);
    expect(out.note).toMatch(/max_output_boxes_per_class/);
  });
});

describe('TopK', () => {
  it('takes k from the input from opset 10 and from the attribute before', () => {
    const outs = factsOf(runRule(dataDependentRules, 'TopK', { inputs: [f32([4, 50]), i64([5])], outputs: 2, opset: 11 }));
    expect(outs).toEqual([
      { dtype: DT.FLOAT, shape: [4, 5] },
      { dtype: DT.INT64, shape: [4, 5] },
    ]);
    const old = runRule(dataDependentRules, 'TopK', { inputs: [f32([4, 50])], attrs: { k: attr.int(3), axis: attr.int(0) }, outputs: 2, opset: 1 });
    expect(firstFact(old).shape).toEqual([3, 50]);
  });

  it('rejects k larger than the axis', () => {
    expect(runRule(dataDependentRules, 'TopK', { inputs: [f32([4, 3]), i64([5])], outputs: 2 })).toHaveProperty('unknown');
  });
});

describe('Unique', () => {
  it('bounds the flattened outputs by numel', () => {
    const outs = factsOf(runRule(dataDependentRules, 'Unique', { inputs: [f32([3, 4])], outputs: 4 }));
    expect(outs.map((o) => [o?.shape, o?.upperBound ?? false])).toEqual([
      [[12], true],
      [[12], true],
      [[12], false],
      [[12], true],
    ]);
  });

  it('does not list the slices of an empty constant along an axis of 2^31 - 1', () => {
    const empty = fact(DT.FLOAT, [2 ** 31 - 1, 0], []);
    const outs = factsOf(runRule(dataDependentRules, 'Unique', { inputs: [empty], attrs: { axis: attr.int(0) }, outputs: 4 }));
    expect(outs.map((f) => f?.shape)).toEqual([[2 ** 31 - 1, 0], [2 ** 31 - 1], [2 ** 31 - 1], [2 ** 31 - 1]]);
  });

  it('finds distinct slices along an axis for constant data', () => {
    const data = i64([1, 0, 0, 1, 0, 0, 2, 3, 4], [3, 3]);
    const outs = factsOf(runRule(dataDependentRules, 'Unique', { inputs: [data], attrs: { axis: attr.int(0) }, outputs: 4 }));
    expect(outs[0]).toEqual({ dtype: DT.INT64, shape: [2, 3], value: [1, 0, 0, 2, 3, 4] });
    expect(outs.slice(1).map((o) => o?.value)).toEqual([[0, 2], [0, 0, 1], [2, 1]]);
  });

  it('is exact for constant data, sorted by default', () => {
    const outs = factsOf(runRule(dataDependentRules, 'Unique', { inputs: [i64([2, 1, 1, 3, 4, 3])], outputs: 4 }));
    expect(outs.map((o) => o?.value)).toEqual([[1, 2, 3, 4], [1, 0, 3, 4], [1, 0, 0, 2, 3, 2], [2, 1, 2, 1]]);
  });
});

describe('Compress', () => {
  it('is exact with a constant condition', () => {
    const out = firstFact(
      runRule(dataDependentRules, 'Compress', { inputs: [i64([1, 2, 3, 4, 5, 6], [3, 2]), fact(DT.BOOL, [3], [0, 1, 1])], attrs: { axis: attr.int(0) } }),
    );
    expect(out).toEqual({ dtype: DT.INT64, shape: [2, 2], value: [3, 4, 5, 6] });
  });

  it('bounds by the condition length and the flattened size otherwise', () => {
    const out = firstFact(runRule(dataDependentRules, 'Compress', { inputs: [f32([3, 4]), fact(DT.BOOL, [5])] }));
    expect(out).toMatchObject({ shape: [5], upperBound: true });
  });
});

describe('string ops', () => {
  it('StringNormalizer keeps the shape without stopwords and bounds it with them', () => {
    expect(firstFact(runRule(dataDependentRules, 'StringNormalizer', { inputs: [fact(DT.STRING, [1, 3])] }))).toEqual({ dtype: DT.STRING, shape: [1, 3] });
    const dropped = runRule(dataDependentRules, 'StringNormalizer', {
      inputs: [fact(DT.STRING, [4])],
      attrs: { stopwords: { kind: 'strings', value: ['monday'] } },
    });
    expect(firstFact(dropped)).toMatchObject({ shape: [4], upperBound: true });
  });
});
