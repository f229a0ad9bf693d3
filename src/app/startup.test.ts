import { describe, expect, it } from 'vitest';
import { DT } from '../model/dtype';
import { inferShapes } from '../model/infer/shapes';
import { irGraph } from '../model/testing/ir-builder';
import type { LoadedModel } from '../store/state';
import { notInEmbed, notInModel } from './startup';
import { parseUrlParams } from './url-params';

/** A model on screen with an image input of symbolic batch, height and width, without a plan (none is needed here). */
function shown(dims: Record<string, number>): LoadedModel {
  const inferred = inferShapes(irGraph().input('image', DT.FLOAT, ['batch', 3, 'h', 'w']).node('Relu', ['image'], ['y']).output('y').model(), { dims });
  return { inferred } as Partial<LoadedModel> as LoadedModel;
}

describe('notInModel: the link dims the model does not have', () => {
  it('names a dim the model lacks, and not one given by the input axis it sizes, which inference binds', () => {
    const dims = { 'image:2': 64, nosuch: 3 };
    const model = shown(dims);
    expect(model.inferred.dims.find((d) => d.name === 'h')).toMatchObject({ value: 64, source: 'user' });
    expect(notInModel(model, { dims, shapes: {}, inputValues: {}, selection: undefined }).dims).toEqual(['dim.nosuch=3: the model has no dim nosuch (its dims: batch, h, w)']);
  });

  it('gives the shapes and input values it names by name, for the Diagnostics lists to leave to the link notice', () => {
    const model = shown({});
    const found = notInModel(model, { dims: {}, shapes: { nosuch: [1, 2] }, inputValues: { foo: [3] }, selection: undefined });
    expect(found.shapes).toEqual(['shape.nosuch=1x2: the model has no tensor nosuch']);
    expect(found.bindings).toEqual([
      { kind: 'shape', name: 'nosuch' },
      { kind: 'input', name: 'foo' },
    ]);
  });

  it("says why an input's axis binds no dim, as inference does, rather than that the model lacks a dim of that name", () => {
    const dims = { 'image:5': 3, 'image:1': 4 };
    expect(notInModel(shown(dims), { dims, shapes: {}, inputValues: {}, selection: undefined }).dims).toEqual([
      "dim.image:5=3: input 'image' has rank 4, so it has no axis 5",
      "dim.image:1=4: axis 1 of input 'image' is fixed at 3",
    ]);
  });

  it("checks a comparison's B, the same model planned again, as A: what it names that the model lacks is named with its b. and left out of B", () => {
    const model = shown({});
    const found = notInModel(model, { dims: { batch: 2, nope: 3 }, shapes: { nope: [1, 3], image: [1, 3, 8, 8] }, inputValues: { nope: [1] }, selection: undefined }, 'b.');
    expect([...found.dims, ...found.shapes, ...found.inputs]).toEqual([
      'b.dim.nope=3: the model has no dim nope (its dims: batch, h, w)',
      'b.shape.nope=1x3: the model has no tensor nope',
      'b.input.nope=1: the model has no input nope (its inputs: image)',
    ]);
    expect(found.kept).toEqual({ dims: { batch: 2 }, shapes: { image: [1, 3, 8, 8] }, inputValues: {} });
  });

  it('quotes each parameter as the link wrote it', () => {
    const params = parseUrlParams('?dim.nope=03&shape.nope=1x03&input.nope=1e3&compare=1&b.dim.nope=007');
    const model = shown({});
    const a = notInModel(model, params);
    expect([...a.dims, ...a.shapes, ...a.inputs]).toEqual([
      'dim.nope=03: the model has no dim nope (its dims: batch, h, w)',
      'shape.nope=1x03: the model has no tensor nope',
      'input.nope=1e3: the model has no input nope (its inputs: image)',
    ]);
    expect(notInModel(model, { ...params.compare!, selection: undefined, typed: params.typed }, 'b.').dims).toEqual(['b.dim.nope=007: the model has no dim nope (its dims: batch, h, w)']);
  });

  it('quotes a selection of nothing on screen as the link wrote it, not as the page read it', () => {
    const plan = { steps: [{}, {}], buffers: [{ id: 0, name: 'image' }, { id: 1, name: 'y' }] };
    const model = { ...shown({}), plan: { status: 'planned', plan } } as unknown as LoadedModel; // only the counts it is checked against
    const selected = (search: string) => notInModel(model, parseUrlParams(search)).selection;
    expect(selected('?select=buffer:007')).toBe('select=buffer:007: the plan has no buffer 007 (it has 2)');
    expect(selected('?select=step:05')).toBe('select=step:05: the plan has 2 steps (0–1)');
    expect(selected('?select=node:nope')).toBe('select=node:nope: the model has no node nope');
    expect(selected('?select=buffer:01')).toBeUndefined();
  });

  it('points a buffer id of nothing on screen to the buffer named as the link wrote it ("007", not "7")', () => {
    const plan = { steps: [{}, {}], buffers: [{ id: 0, name: '7' }, { id: 1, name: '007' }] };
    const model = { ...shown({}), plan: { status: 'planned', plan } } as unknown as LoadedModel;
    expect(notInModel(model, parseUrlParams('?select=buffer:007')).selection).toBe(
      "select=buffer:007: the plan has no buffer 007 (it has 2); the buffer named 007 is select=buffer:1 (the link takes a buffer's id)",
    );
    expect(notInModel(model, parseUrlParams('?select=buffer:7')).selection).toBe(
      "select=buffer:7: the plan has no buffer 7 (it has 2); the buffer named 7 is select=buffer:0 (the link takes a buffer's id)",
    );
  });
});

describe('notInEmbed: what an embedded view leaves out of a link', () => {
  it("names compare=1 and each of B's parameters as the link wrote them, for the full view to open", () => {
    expect(notInEmbed(parseUrlParams('?embed=1&compare=1&b.target=mcu&b.dim.batch=02&b.shape.image=1x3x8x8&dim.batch=2'))).toEqual([
      'compare=1: an embedded view opens no comparison; Open in heapscope opens it',
      'b.target=mcu: an embedded view opens no comparison; Open in heapscope opens it',
      'b.dim.batch=02: an embedded view opens no comparison; Open in heapscope opens it',
      'b.shape.image=1x3x8x8: an embedded view opens no comparison; Open in heapscope opens it',
    ]);
  });

  it('names a b. parameter already left out for its value once, for that reason, and nothing in the full page or without compare=1', () => {
    const left = notInEmbed(parseUrlParams('?embed=1&compare=1&b.target=nope&b.dim.batch=-3&b.strategy=best'));
    expect(left.map((entry) => entry.split(':')[0])).toEqual(['compare=1', 'b.strategy=best']);
    expect(notInEmbed(parseUrlParams('?compare=1&b.target=mcu'))).toEqual([]);
    expect(notInEmbed(parseUrlParams('?embed=1&target=mcu'))).toEqual([]);
  });
});
