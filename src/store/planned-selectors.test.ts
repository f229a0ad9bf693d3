// On tflm a DEQUANTIZE of a weight is run at each inference and planned in the
// arena: the Tensors table, its kind counts and the model card count its output
// once, as an activation (of unknown size when its size is unknown), and leave
// it out of the constants and the weights; on cpu it stays a folded constant.

import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../model/inferred';
import { activationStatWords } from '../views/panels/activation-stat';
import { DEFAULT_SETTINGS } from '../settings/names';
import { planForSettings } from '../worker/plan/settings';
import { selectKindCounts, selectKindMatches, selectPlannedReport, selectRows, selectWeights } from './planned-selectors';
import { INITIAL_STATE, type AppState, type LoadedModel } from './state';
import { dequantizeModel } from './testing/dequantize-model';

const inferred = dequantizeModel();
const names = (rows: readonly { name: string }[]) => rows.map((r) => r.name);

function stateOn(target: string, model: InferredModel = inferred, planned: InferredModel = model): AppState {
  const plan = planForSettings(planned, { target, strategy: 'best' });
  const loaded: LoadedModel = { name: 'm.tflite', size: 100, origin: 'file', url: undefined, inferred: model, timings: { decodeMs: 1, inferMs: 1 }, plan: { status: 'planned', settings: DEFAULT_SETTINGS, plan, ms: 1 }, opening: 1 };
  return { ...INITIAL_STATE, model: loaded, actions: {} as AppState['actions'] };
}

describe('the Tensors table as the plan has it', () => {
  it('lists a DEQUANTIZE of a weight among the run-time tensors where the plan runs it (tflm), among the constants elsewhere', () => {
    const tflm = stateOn('tflm');
    expect(names(selectRows({ ...tflm, kinds: 'runtime' }))).toEqual(['x', 'w', 'y']);
    expect(selectRows({ ...tflm, kinds: 'constants' })).toEqual([]);
    expect(selectRows(tflm).find((r) => r.name === 'w')?.kind).toBe('activation');
    expect(selectKindCounts(tflm)).toEqual({ all: 4, runtime: 3, weights: 1, constants: 0 });
    const cpu = stateOn('cpu');
    expect(names(selectRows({ ...cpu, kinds: 'constants' }))).toEqual(['w']);
    expect(selectRows(cpu).find((r) => r.name === 'w')?.kind).toBe('constant');
    expect(selectKindCounts(cpu)).toEqual({ all: 4, runtime: 2, weights: 1, constants: 1 });
  });

  it('counts, per kind filter, the tensors the search lets through: the rows the table lists with that filter chosen', () => {
    const kinds = ['all', 'runtime', 'weights', 'constants'] as const;
    for (const [target, matched] of [
      ['tflm', { all: 3, runtime: 3, weights: 0, constants: 0 }],
      ['cpu', { all: 3, runtime: 2, weights: 0, constants: 1 }],
    ] as const) {
      // x, w and y are float32; w16, the file's weight, is float16 and does not match
      const searched = { ...stateOn(target), query: ' FLOAT32 ' };
      expect(selectKindMatches(searched)).toEqual(matched);
      for (const kind of kinds) expect(selectRows({ ...searched, kinds: kind })).toHaveLength(matched[kind]);
      // the totals behind each filter stay what they are without a search
      expect(selectKindCounts(searched)).toEqual(selectKindCounts(stateOn(target)));
    }
    // no search (or only spaces): each filter lists all its tensors, which selectKindCounts gives
    expect(selectKindMatches(stateOn('tflm'))).toBeUndefined();
    expect(selectKindMatches({ ...stateOn('tflm'), query: '  ' })).toBeUndefined();
    expect(selectKindMatches({ ...stateOn('cpu'), query: 'nothing-like-this' })).toEqual({ all: 0, runtime: 0, weights: 0, constants: 0 });
  });

  it('keeps its sorted rows and counts through a replan that runs the same constants', () => {
    const first = stateOn('tflm');
    const again = stateOn('tflm');
    expect(again.model!.plan).not.toBe(first.model!.plan);
    const sort = { column: 'bytes', direction: 'descending' } as const;
    const rows = selectRows({ ...first, sort });
    const counts = selectKindCounts(first);
    expect(selectRows({ ...again, sort })).toBe(rows);
    expect(selectKindCounts(again)).toBe(counts);
  });
});

describe('the model card', () => {
  it('counts a DEQUANTIZE of a weight once: with the activations and their bytes on tflm, with the constants elsewhere', () => {
    // x and y, 16 B each; w, 4×4 float32
    expect(selectPlannedReport(stateOn('cpu'))).toMatchObject({ activations: 2, activationBytes: 32, constants: 1 });
    expect(selectPlannedReport(stateOn('tflm'))).toMatchObject({ activations: 3, activationBytes: 32 + 64, constants: 0 });
  });

  it('counts as weights only what the plan keeps, and says how many constants it runs', () => {
    // w16, 32 B of float16, is the file's weight; w, its float32 DEQUANTIZE, is folded on cpu and run on tflm
    const tflm = stateOn('tflm');
    expect(selectWeights(tflm)).toEqual({ count: 1, bytes: 32, fromConstants: 0, unknown: 0, run: 1 });
    expect(tflm.model!.plan.status === 'planned' && tflm.model!.plan.plan.weights.tensors).toBe(1);
    const cpu = stateOn('cpu');
    expect(selectWeights(cpu)).toEqual({ count: 2, bytes: 32 + 64, fromConstants: 1, unknown: 0, run: 0 });
    expect(cpu.model!.plan.status === 'planned' && cpu.model!.plan.plan.weights.tensors).toBe(2);
  });

  it('gives "Without reuse" as a lower estimate when a constant the plan runs has an unknown size', () => {
    const unsized: InferredModel = { ...inferred, values: inferred.values.map((v) => (v.name === 'w' ? { ...v, shape: undefined, bytes: undefined, unknownReason: 'shape unknown' } : v)) };
    const report = selectPlannedReport(stateOn('tflm', unsized, inferred))!;
    expect(report).toMatchObject({ activations: 3, activationBytes: 32, unknownActivations: 1, constants: 0 });
    expect(report.unknownShapes.map((u) => u.name)).toEqual(['w']);
    expect(activationStatWords(report, undefined).value).toBe('≥ 32 B');
  });
});
