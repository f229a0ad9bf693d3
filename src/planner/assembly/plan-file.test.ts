import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { planModel } from '../plan';
import { isPlanFileText, looksLikePlanFile, readPlanFile, toPlanFile, writePlanFile } from './plan-file';
import { presetTarget } from '../targets/presets';
import { tinyGraph } from '../testing/tiny-graph';

function savedText(): string {
  const g = tinyGraph().input('x', [2, 8]);
  g.node('Relu', ['x'], { a: [2, 8] }, { name: 'relu' }).node('Tanh', ['a'], { y: [2, 8] }, { name: 'tanh' });
  const model = { ...g.output('y').model(), dims: [{ name: 'batch', value: 2, source: 'user' as const }, { name: 'seq', value: 8, source: 'default' as const }] };
  const target = presetTarget('mcu');
  return writePlanFile(toPlanFile(model, planModel(model, target), { model: 'https://example.org/m.onnx', target: 'mcu', targetProfile: target, dims: { batch: 2 } }));
}

function errorOf(text: string): InputError {
  try {
    readPlanFile(text, 'p.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('bad-plan');
    return error as InputError;
  }
  throw new Error('readPlanFile accepted the text');
}

describe('plan files', () => {
  it('round-trip the plan, its settings with every dim it was planned with, and the nodes', () => {
    const text = savedText();
    const file = readPlanFile(text, 'p.json');
    expect(file.settings).toMatchObject({ strategy: 'best', target: 'mcu', dims: { batch: 2, seq: 8 } });
    expect(file.settings.targetProfile).toEqual(presetTarget('mcu'));
    expect(file.nodes).toEqual([
      { name: 'relu', opType: 'Relu', inputs: ['x'], outputs: ['a'] },
      { name: 'tanh', opType: 'Tanh', inputs: ['a'], outputs: ['y'] },
    ]);
    expect(writePlanFile(file)).toBe(text);
  });

  it('read whether every size was known from plans saved before they recorded it, so every view reads one answer', () => {
    const doc = JSON.parse(savedText());
    const read = (plan: object) => readPlanFile(JSON.stringify({ ...doc, plan }), 'p.json').plan.complete;
    const { complete: _, ...older } = doc.plan;
    expect(read(older)).toBe(true); // lists no tensor of unknown size
    expect(read({ ...older, assumptions: { ...older.assumptions, unknown: [{ tensor: 't', op: 'Mystery', reason: 'no shape rule' }] } })).toBe(false);
    const { assumptions: __, ...oldest } = older;
    expect(read(oldest)).toBe(true); // as it was shown then
    expect(read({ ...doc.plan, complete: false })).toBe(false);
    expect(errorOf(JSON.stringify({ ...doc, plan: { ...doc.plan, complete: 'yes' } })).message).toBe('p.json: plan file field plan.complete must be true or false, got "yes"');
  });

  it('read a plan with sizes unknown, saved when such plans still claimed an optimum, as claiming none: the proof moves to knownSizesProof', () => {
    const doc = JSON.parse(savedText());
    const regions = doc.plan.regions.map((r: object) => ({ ...r, optimal: true }));
    const saved = { ...doc.plan, complete: false, optimal: true, regions, search: { proven: true, stoppedBy: 'optimal', proof: 'lower-bound' } };
    const plan = readPlanFile(JSON.stringify({ ...doc, plan: saved }), 'p.json').plan;
    expect(plan.optimal).toBe(false);
    expect(plan.regions.map((r) => r.optimal)).toEqual(regions.map(() => false));
    expect(plan.search).toEqual({ proven: false, stoppedBy: 'done', knownSizesProof: 'lower-bound' });
    const complete = readPlanFile(JSON.stringify({ ...doc, plan: { ...saved, complete: true } }), 'p.json').plan;
    expect(complete.optimal).toBe(true);
    expect(complete.search).toEqual({ proven: true, stoppedBy: 'optimal', proof: 'lower-bound' });
  });

  it('are sniffed from text or bytes, and nothing else is', () => {
    const text = savedText();
    expect(isPlanFileText(text)).toBe(true);
    expect(isPlanFileText(new TextEncoder().encode('\uFEFF  ' + text))).toBe(true);
    expect(isPlanFileText('{"format": "heapscope-plan", "version": 1}')).toBe(true);
    expect(isPlanFileText('{"version": 1, "format": "heapscope-plan"}')).toBe(false);
    expect(isPlanFileText('id,lower,upper,size\n')).toBe(false);
    expect(isPlanFileText(new Uint8Array([0x08, 0x07, 0x12, 0x04]))).toBe(false);
  });

  it('are told from a model by how they start, even cut short or reordered, so their fault is named as a plan file\'s', () => {
    expect(looksLikePlanFile(savedText())).toBe(true);
    expect(looksLikePlanFile('{"model":"x","nodes":[')).toBe(true);
    expect(looksLikePlanFile(new TextEncoder().encode('\uFEFF {"version": 1, "format": "heapscope-plan"}'))).toBe(true);
    expect(looksLikePlanFile('{"name": "notes", "kind": "heapscope-plan"}')).toBe(true);
    expect(looksLikePlanFile('{"name": "notes"}')).toBe(false);
    expect(looksLikePlanFile('["model"]')).toBe(false);
    expect(looksLikePlanFile(new Uint8Array([0x08, 0x07, 0x12, 0x04]))).toBe(false);
  });

  it("record each graph input's planned shape, and read files saved before they did", () => {
    const doc = JSON.parse(savedText());
    expect(doc.settings.inputShapes).toEqual({ x: [2, 8] });
    expect(readPlanFile(JSON.stringify(doc), 'p.json').settings.inputShapes).toEqual({ x: [2, 8] });
    const { inputShapes: _, ...older } = doc.settings;
    expect(readPlanFile(JSON.stringify({ ...doc, settings: older }), 'p.json').settings.inputShapes).toBeUndefined();
    expect(errorOf(JSON.stringify({ ...doc, settings: { ...doc.settings, inputShapes: { x: [2, -1] } } })).message).toBe('p.json: plan file field settings.inputShapes.x must be an array of whole numbers, got [2,-1]');
  });

  it('refuse bad text with a sentence naming the file and the field', () => {
    const doc = JSON.parse(savedText());
    const variant = (edit: (d: typeof doc) => void) => {
      const copy = JSON.parse(JSON.stringify(doc));
      edit(copy);
      return JSON.stringify(copy);
    };
    expect(errorOf('{"format": "heapscope-plan",').message).toMatch(/^p\.json is not a plan file: not valid JSON \(/);
    expect(errorOf('[1, 2]').message).toBe('p.json is not a plan file: expected a JSON object, got [1,2]');
    expect(errorOf(variant((d) => (d.format = 'netron'))).message).toBe('p.json is not a plan file: "format" is "netron", expected "heapscope-plan"');
    expect(errorOf(variant((d) => (d.version = 2))).message).toBe('p.json: plan file version 2 is not supported (this heapscope reads version 1)');
    expect(errorOf(variant((d) => delete d.settings)).message).toBe('p.json: plan file field settings must be an object, it is missing');
    expect(errorOf(variant((d) => (d.settings.dims.batch = -1))).message).toBe('p.json: plan file field settings.dims.batch must be a whole number, got -1');
    // too large is named as --dim names it, not "must be a whole number, got 1e+30"
    expect(errorOf(variant((d) => (d.settings.dims.batch = 1e30))).message).toBe('p.json: plan file field settings.dims.batch must be at most 9007199254740991 (2^53 − 1), got 1e+30');
    expect(errorOf(variant((d) => (d.settings.dims.batch = 2 ** 53))).message).toBe('p.json: plan file field settings.dims.batch must be at most 9007199254740991 (2^53 − 1), got 9007199254740992');
    expect(errorOf(variant((d) => (d.settings.inputShapes = { x: [1, 1e30] }))).message).toBe('p.json: plan file field settings.inputShapes.x[1] must be at most 9007199254740991 (2^53 − 1), got 1e+30');
    expect(errorOf(variant((d) => delete d.plan.buffers[1].offset)).message).toBe('p.json: plan file field plan.buffers[1].offset must be a number, it is missing');
    expect(errorOf(variant((d) => (d.plan.buffers[1].offset = 2 ** 53))).message).toBe('p.json: plan file field plan.buffers[1].offset must be a whole number from 0 to 2^53 − 1, got 9007199254740992');
    expect(errorOf(variant((d) => (d.nodes[0].outputs = 'a'))).message).toBe('p.json: plan file field nodes[0].outputs must be an array, got "a"');
    expect(errorOf(variant((d) => d.plan.regions.push(d.plan.regions[0]))).message).toBe('p.json: plan file field plan.regions[2].name must be unique, got "sram"');
    // the assumptions diff reads by field: diff of such a file stopped with an internal error
    expect(errorOf(variant((d) => (d.plan.assumptions.unknown = { tensor: 'x' }))).message).toBe('p.json: plan file field plan.assumptions.unknown must be an array, got {"tensor":"x"}');
    expect(errorOf(variant((d) => (d.plan.assumptions.unknown = [7]))).message).toBe('p.json: plan file field plan.assumptions.unknown[0] must be an object, got 7');
    expect(errorOf(variant((d) => (d.plan.assumptions.kernels = [{ op: 'ETHOS_U' }]))).message).toBe('p.json: plan file field plan.assumptions.kernels[0].node must be a string, it is missing');
    expect(errorOf(variant((d) => (d.plan.assumptions = 'none'))).message).toBe('p.json: plan file field plan.assumptions must be an object, got "none"');
    expect(errorOf(variant((d) => (d.settings.targetProfile.regions = []))).message).toMatch(/^p\.json: settings\.targetProfile: regions must list at least one memory region/);
    // settings that contradict the plan: a side labelled cpu was planned on the mcu profile, one labelled naive with best
    expect(errorOf(variant((d) => (d.settings.target = 'cpu'))).message).toBe('p.json: settings.target "cpu" names the preset cpu, but settings.targetProfile is "mcu": the two contradict each other (one was edited); save the plan again');
    expect(errorOf(variant((d) => (d.settings.strategy = 'naive'))).message).toBe(`p.json: settings.strategy "naive" contradicts plan.strategy "best", the strategy the plan was made with (one was edited); save the plan again`);
    // a profile edited from a preset, saved as custom, and a strategy this heapscope does not know on both: as written
    expect(readPlanFile(variant((d) => ((d.settings.target = 'custom'), (d.settings.targetProfile.name = 'my board'))), 'p.json').settings.target).toBe('custom');
    expect(readPlanFile(variant((d) => ((d.settings.strategy = 'quantum'), (d.plan.strategy = 'quantum'))), 'p.json').plan.strategy).toBe('quantum');
  });
});

describe('readPlanFile on nesting without end', () => {
  it('refuses a field kept as written (a buffer\'s node) nested 100,000 deep, naming it, before diff or a view copies it', () => {
    const depth = 100_000;
    const text = savedText().replace(/"node":"relu"/, `"node":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    expect(text.length).toBeGreaterThan(500_000);
    expect(errorOf(text).message).toMatch(/^p\.json: plan file field plan\.buffers\[\d+\]\.node\.a\.a.* nests deeper than 64 levels/);
  });

  it('reads a plan as written, a few levels deep', () => {
    expect(readPlanFile(savedText(), 'p.json').plan.buffers.length).toBeGreaterThan(0);
  });
});
