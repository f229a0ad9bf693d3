import { describe, expect, it } from 'vitest';
import type { InferredModel, InferredValue } from '../model/inferred';
import { filterRows, selectPageSummary, sortRows, tensorRows } from './selectors';
import { selectKindCounts, selectRows, selectWeights } from './planned-selectors';
import { INITIAL_STATE, type AppState, type LoadedModel } from './state';
import { DEFAULT_SETTINGS } from '../settings/names';
import { planForSettings } from '../worker/plan/settings';

function value(name: string, kind: InferredValue['kind'], dtypeName: string, shape: number[] | undefined, producer?: number): InferredValue {
  const elements = shape?.reduce((a, b) => a * b, 1);
  return {
    name,
    kind,
    dtype: 1,
    dtypeName,
    shape,
    bytes: elements === undefined ? undefined : elements * (dtypeName === 'float16' ? 2 : 4),
    producer,
    consumers: [],
    ...(shape === undefined ? { unknownReason: 'NonMaxSuppression has no shape rule' } : {}),
  };
}

const MODEL: InferredModel = {
  name: 'g',
  nodes: [
    { name: 'conv', opType: 'Conv', domain: '', inputs: ['x', 'w'], outputs: ['y'], subgraphs: [], constant: false },
    { name: 'nms', opType: 'NonMaxSuppression', domain: '', inputs: ['y'], outputs: ['boxes'], subgraphs: [], constant: false },
    { name: 'relu', opType: 'Relu', domain: '', inputs: ['y'], outputs: ['z'], subgraphs: [], constant: false },
  ],
  values: [
    value('x', 'input', 'float32', [1, 3, 8, 8]),
    value('w', 'initializer', 'float16', [16, 3, 3, 3]),
    value('y', 'activation', 'float32', [1, 16, 8, 8], 0),
    value('boxes', 'output', 'int64', undefined, 1),
    value('z', 'output', 'float32', [1, 16, 8, 8], 2),
  ],
  inputs: ['x'],
  outputs: ['boxes', 'z'],
  info: { producerName: 't', producerVersion: '1', irVersion: 8, opsets: [], fileBytes: 100 },
  dims: [],
  shapes: {},
  inputValues: {},
  diagnostics: [],
};

const NO_PLAN: LoadedModel['plan'] = { status: 'failed', settings: DEFAULT_SETTINGS, error: { code: 'internal', message: 'not planned in this test' } };

const state = (patch: Partial<AppState> = {}): AppState => ({
  ...INITIAL_STATE,
  model: { name: 'm.onnx', size: 100, origin: 'file', url: undefined, inferred: MODEL, timings: { decodeMs: 1, inferMs: 1 }, plan: NO_PLAN, opening: 1 } satisfies LoadedModel,
  actions: {} as AppState['actions'],
  ...patch,
});

const names = (rows: readonly { name: string }[]) => rows.map((r) => r.name);

describe('tensor table selectors', () => {
  it('lists every value with its producer op and a reason for unknown sizes', () => {
    const rows = tensorRows(MODEL);
    expect(names(rows)).toEqual(['x', 'w', 'y', 'boxes', 'z']);
    expect(rows[2]).toMatchObject({ op: 'Conv', shape: '1×16×8×8', bytes: 4096, elements: 1024 });
    expect(rows[3]).toMatchObject({ op: 'NonMaxSuppression', shape: '?', bytes: undefined, note: 'NonMaxSuppression has no shape rule' });
    expect(tensorRows(MODEL)).toBe(rows);
  });

  it('filters on name, op, producing node and dtype, every word must match', () => {
    const rows = tensorRows(MODEL);
    expect(names(filterRows(rows, 'relu'))).toEqual(['z']);
    expect(names(filterRows(rows, 'FLOAT16'))).toEqual(['w']);
    expect(names(filterRows(rows, 'float32 conv'))).toEqual(['y']);
    // by the name of the node that produces it, which the op type does not contain
    expect(names(filterRows(rows, 'nms'))).toEqual(['boxes']);
    expect(names(filterRows(rows, '  '))).toEqual(names(rows));
    expect(filterRows(rows, 'nothing-like-this')).toEqual([]);
  });

  it('lists run-time tensors, weights or constants on their own, and counts each group', () => {
    const rows = tensorRows(MODEL);
    expect(names(filterRows(rows, '', 'runtime'))).toEqual(['x', 'y', 'boxes', 'z']);
    expect(names(filterRows(rows, '', 'weights'))).toEqual(['w']);
    expect(filterRows(rows, '', 'constants')).toEqual([]);
    expect(names(filterRows(rows, 'float32', 'runtime'))).toEqual(['x', 'y', 'z']);
    expect(selectKindCounts(state())).toEqual({ all: 5, runtime: 4, weights: 1, constants: 0 });
  });

  it('sorts by bytes both ways with unknown sizes last, ties in model order', () => {
    const rows = tensorRows(MODEL);
    expect(names(sortRows(rows, { column: 'bytes', direction: 'ascending' }))).toEqual(['x', 'w', 'y', 'z', 'boxes']);
    expect(names(sortRows(rows, { column: 'bytes', direction: 'descending' }))).toEqual(['y', 'z', 'w', 'x', 'boxes']);
  });

  it('sorts names naturally and ops with inputs and weights last', () => {
    const rows = tensorRows(MODEL);
    expect(names(sortRows(rows, { column: 'name', direction: 'descending' }))).toEqual(['z', 'y', 'x', 'w', 'boxes']);
    expect(names(sortRows(rows, { column: 'op', direction: 'ascending' }))).toEqual(['y', 'boxes', 'z', 'x', 'w']);
  });

  it('sorts by the kind the cell reads, so a decoder\'s KV cache rows are a group apart from the plain inputs and outputs', () => {
    const concat = { name: 'cat', opType: 'Concat', domain: '', inputs: ['past_0', 'k'], outputs: ['present_0'], subgraphs: [], constant: false };
    const decoder: InferredModel = {
      ...MODEL,
      nodes: [{ name: 'proj', opType: 'Relu', domain: '', inputs: ['x'], outputs: ['k'], subgraphs: [], constant: false }, concat, { name: 'out', opType: 'Relu', domain: '', inputs: ['k'], outputs: ['z'], subgraphs: [], constant: false }],
      values: [value('past_0', 'input', 'float32', [1, 2, 4]), value('x', 'input', 'float32', [1, 1, 4]), value('k', 'activation', 'float32', [1, 1, 4], 0), value('present_0', 'output', 'float32', [1, 3, 4], 1), value('z', 'output', 'float32', [1, 1, 4], 2)],
      inputs: ['past_0', 'x'],
      outputs: ['present_0', 'z'],
    };
    const rows = tensorRows(decoder);
    // input, input · KV cache, activation, output, output · KV cache
    expect(names(sortRows(rows, { column: 'kind', direction: 'ascending' }))).toEqual(['x', 'past_0', 'k', 'z', 'present_0']);
    expect(names(sortRows(rows, { column: 'kind', direction: 'descending' }))).toEqual(['present_0', 'z', 'k', 'past_0', 'x']);
    expect(rows.filter((r) => r.kv).map((r) => r.name)).toEqual(['past_0', 'present_0']);
  });

  it('returns the same rows while query, sort and model are unchanged', () => {
    const s = state({ query: 'float32' });
    expect(selectRows(s)).toBe(selectRows({ ...s }));
    expect(names(selectRows(s))).toEqual(['x', 'y', 'z']);
  });
});

describe('page summary', () => {
  it('reports the plan: its buffers, peak, lower bound, strategy and target', () => {
    const plan = planForSettings(MODEL, { target: 'cpu', strategy: 'naive' });
    const planned = state({ model: { ...state().model!, plan: { status: 'planned', settings: DEFAULT_SETTINGS, plan, ms: 1 } } });
    const summary = selectPageSummary(planned);
    expect(summary).toMatchObject({ model: 'm.onnx', nodes: 3, strategy: 'naive', target: 'cpu', fusionUnits: 0, error: null });
    expect(summary.buffers).toBe(plan.buffers.length);
    expect(summary.buffers).toBeGreaterThan(0);
    // naive gives every buffer its own bytes, so its peak is the sum of the buffer sizes.
    expect(summary.peak).toBe(plan.buffers.reduce((sum, b) => sum + (b.alias === undefined ? b.size : 0), 0));
    expect(summary.lowerBound).toBeLessThanOrEqual(summary.peak!);
    // boxes (NonMaxSuppression) has no size: the peak is a lower estimate, and the banner says so.
    expect(summary).toMatchObject({ complete: false, fits: true });
    expect(summary.warnings).toEqual([expect.stringMatching(/^1 tensor of unknown size \('boxes', NonMaxSuppression\): the peak is a lower estimate/)]);
  });

  it('says, in the banner and the warnings, that an ONNX model on target tflm is planned as on any target, not as TFLite Micro would', () => {
    // the page showed "best (tflm)" with no banner and no warning, as if it were TensorFlow Lite Micro's own plan
    const plan = planForSettings(MODEL, { target: 'tflm', strategy: 'best' });
    const planned = state({ model: { ...state().model!, plan: { status: 'planned', settings: { ...DEFAULT_SETTINGS, target: 'tflm', strategy: 'best' }, plan, ms: 1 } } });
    const summary = selectPageSummary(planned);
    expect(summary.target).toBe('tflm');
    expect(summary.warnings).toContain("Target tflm reproduces TensorFlow Lite Micro's own plan for .tflite models only; this model is planned as on any target");
    const onCpu = planForSettings(MODEL, { target: 'cpu', strategy: 'best' });
    const cpu = selectPageSummary(state({ model: { ...state().model!, plan: { status: 'planned', settings: DEFAULT_SETTINGS, plan: onCpu, ms: 1 } } }));
    expect(cpu.warnings.filter((w) => w.includes('TensorFlow Lite Micro'))).toEqual([]);
  });

  it('carries the red "Does not fit" line first among the warnings when a region is over its limit', () => {
    const fitting = planForSettings(MODEL, { target: 'cpu', strategy: 'naive' });
    const plan = { ...fitting, fits: false, regions: fitting.regions.map((r) => ({ ...r, sizeLimit: 16, overBy: r.peak - 16 })) };
    const planned = state({ model: { ...state().model!, plan: { status: 'planned', settings: DEFAULT_SETTINGS, plan, ms: 1 } } });
    const summary = selectPageSummary(planned);
    expect(summary.fits).toBe(false);
    expect(summary.warnings[0]).toMatch(/^Does not fit: \S+ needs at least [\d.]+ (B|KiB), at least [\d.]+ (B|KiB) over its 16 B limit$/);
    expect(summary.warnings.slice(1)).toEqual([expect.stringMatching(/^1 tensor of unknown size/)]);
  });

  it('shows no plan numbers and the planning error when the plan failed', () => {
    expect(selectPageSummary(state())).toEqual({
      model: 'm.onnx',
      format: 'onnx',
      nodes: 3,
      buffers: 0,
      peak: null,
      lowerBound: null,
      strategy: null,
      target: null,
      fusionUnits: 0,
      error: 'not planned in this test',
      complete: null,
      fits: null,
      lowerEstimate: null,
      warnings: ["1 tensor of unknown size ('boxes', NonMaxSuppression): the peak is a lower estimate — give a shape"],
      graph: { status: 'pending', boxes: 0, ms: null, collapsed: [] },
      settings: expect.objectContaining({ target: expect.any(String), fusion: true, computeUnits: true, dims: {}, shapes: {}, inputValues: {} }),
      regions: null,
    });
  });

  it('reports the graph as drawn only for the model and plan on screen', () => {
    const s = state();
    const drawn = { model: s.model!.inferred, plan: s.model!.plan, status: 'drawn' as const, boxes: 7, ms: 120 };
    expect(selectPageSummary({ ...s, graph: drawn }).graph).toEqual({ status: 'drawn', boxes: 7, ms: 120, collapsed: [] });
    expect(selectPageSummary({ ...s, graph: { ...drawn, plan: undefined } }).graph.status).toBe('pending');
    expect(selectPageSummary({ ...s, model: undefined }).graph).toEqual({ status: 'none', boxes: 0, ms: null, collapsed: [] });
  });

  it('lists the collapsed groups the graph pane reported for the model on screen only', () => {
    const s = state();
    const groups = { model: s.model!.inferred, from: 'first' as const, open: [], closed: ['sc:/a'], collapsed: ['sc:/a'] };
    expect(selectPageSummary({ ...s, groups }).graph.collapsed).toEqual(['sc:/a']);
    expect(selectPageSummary({ ...s, groups: { ...groups, model: undefined } }).graph.collapsed).toEqual([]);
  });

  it('is empty before a model is open and carries the error message', () => {
    const s = state({ model: undefined, error: { code: 'not-onnx', message: 'x.onnx is not an ONNX model', file: 'x.onnx', task: 'open' } });
    expect(selectPageSummary(s)).toMatchObject({ model: null, format: null, nodes: 0, buffers: 0, error: 'x.onnx is not an ONNX model' });
  });

  it('says the format the model on screen was read as', () => {
    const s = state();
    expect(selectPageSummary(s).format).toBe('onnx');
    const tflite = { ...s.model!, inferred: { ...s.model!.inferred, format: 'tflite' as const } };
    expect(selectPageSummary(state({ model: tflite })).format).toBe('tflite');
  });
});

describe('the model card weights', () => {
  const withConstants: InferredModel = {
    ...MODEL,
    nodes: [{ name: 'k', opType: 'Constant', domain: '', inputs: [], outputs: ['b'], subgraphs: [], constant: true }, ...MODEL.nodes],
    values: [...MODEL.values, value('b', 'constant', 'float32', [16]), value('lut', 'constant', 'float32', undefined)],
  };

  it('counts initializers and tensors from Constant nodes, as the plan does, and says when a size is unknown', () => {
    const stats = selectWeights(state({ model: { ...state().model!, inferred: withConstants } }));
    expect(stats).toEqual({ count: 3, bytes: 16 * 3 * 3 * 3 * 2 + 16 * 4, fromConstants: 2, unknown: 1, run: 0 });
    const plan = planForSettings(withConstants, DEFAULT_SETTINGS);
    expect(plan.weights).toMatchObject({ tensors: stats.count, bytes: stats.bytes });
  });
});
