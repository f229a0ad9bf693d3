import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { RuntimePlan } from '../../planner/tflm/runtime-plan';
import { planForSettings } from '../../worker/plan/settings';
import { declaredArenaText } from '../../planner/diff/delta-words';
import { arenaStanding, estimatedPartsText, filePlanVerdict, plannedTfliteContents, runtimeLines } from './runtime-plan-words';

const MODELS = join(__dirname, '../../../../shared/models/tflite');

/** A runtime plan without an offline plan in the file, where heapscope's plan saves 512 KiB. */
const saving: RuntimePlan = {
  runtime: 'tflm',
  head: 4_194_304,
  tail: 24_328,
  tailEstimated: true,
  arena: 4_218_640,
  arenaReason: 'the head and tail it ends up using; planning needs less in between',
  planningBytes: 18_680,
  tailParts: [
    { what: 'eval tensors', bytes: 4320, estimated: false, rule: '12 B per tensor (TfLiteEvalTensor)' },
    { what: 'allocators', bytes: 124, estimated: true, rule: 'the arena, planner and allocator objects of a 32-bit build' },
    { what: 'kernel data', bytes: 3000, estimated: true, rule: "each kernel's OpData" },
  ],
  greedyHead: 4_194_304,
  planned: { head: 3_670_016, offsets: [0, 16], saving: 524_288, savingPercent: 12.5, arena: 3_694_352, source: 'the plan' },
  buffers: 247,
  scratch: 0,
  variableBytes: 0,
  notes: [],
};

/** A file whose offline plan overlaps tensors inside a custom operator; the file's plan is kept. */
const vela: RuntimePlan = {
  ...saving,
  head: 74_464,
  greedyHead: 158_160,
  tail: 412,
  arena: 74_880,
  filePlan: { head: 74_464, valid: false, problem: 'a and b are live at once and share bytes from 0', insideCustomOp: 'ethos-u_0' },
  planned: { head: 74_464, offsets: [], saving: 0, savingPercent: 0, arena: 74_880, source: "the file's own offline plan" },
};

describe('declaredArenaText', () => {
  it('writes an arena to declare with its "≥" when a lower estimate, and "none works" where TFLite Micro refuses the model', () => {
    const unknown = ['custom operator X (x_0): its kernel\'s scratch requests are not known; none are assumed'];
    // the tail's allocators and kernel data are estimated: the figure says it is an estimate, as the CLI does
    expect(declaredArenaText(3_717_712, arenaStanding(saving))).toBe('3.55 MiB (estimate)');
    expect(declaredArenaText(3_717_712, arenaStanding({ ...saving, tailEstimated: false }))).toBe('3.55 MiB');
    expect(declaredArenaText(3_717_712, arenaStanding({ ...saving, notes: unknown }))).toBe('≥ 3.55 MiB');
    expect(declaredArenaText(3_717_712, arenaStanding({ ...saving, refused: ['x.'] }), true)).toBe('none works (3.55 MiB, an estimate, were it accepted)');
    const refused = arenaStanding({ ...saving, notes: unknown, refused: ['110 DEQUANTIZE operators have a FLOAT16 input.'] });
    expect(refused).toEqual({ estimate: true, lowerEstimate: true, refused: true });
    expect(declaredArenaText(3_717_712, refused)).toBe('none works');
    expect(declaredArenaText(3_717_712, refused, true)).toBe('none works (≥ 3.55 MiB were it accepted)');
  });

  it('is what Details shows as the arena, so a refused model has no arena shown as working', () => {
    const refused = { ...saving, notes: ['a kernel'], refused: ['110 DEQUANTIZE operators have a FLOAT16 input.'] };
    const arena = runtimeLines(refused, 3_670_016).find((l) => l.key === 'arena')!;
    expect(arena.shown).toBe('none works');
    expect(arena.text).toMatch(/^None works: AllocateTensors\(\) fails whatever the arena\. 110 DEQUANTIZE operators have a FLOAT16 input\. Were it accepted: ≥ 4\.02 MiB for the file as it is; ≥ 3\.52 MiB with heapscope’s plan\. /);
    expect(runtimeLines({ ...saving, notes: ['a kernel'] }, 3_670_016).find((l) => l.key === 'arena')!.shown).toBe('≥ 4.02 MiB');
  });
});

describe('runtimeLines', () => {
  it('marks the arena a lower estimate when a kernel’s scratch requests are not known, as the plan’s notes say', () => {
    const unknown = { ...saving, notes: ["custom operator Convolution2DTransposeBias (Convolution2DTransposeBias_244): its kernel's scratch requests are not known; none are assumed"] };
    const arena = runtimeLines(unknown, 3_670_016).find((l) => l.key === 'arena')!;
    expect(arena.atLeast).toBe(true);
    expect(arena.text).toBe(
      'For the file as it is; ≥ 3.52 MiB with heapscope’s plan. Why: the head and tail it ends up using; planning needs less in between. It rests on the tail’s estimate. A lower estimate: a kernel’s scratch requests are not known, and none are assumed.',
    );
    expect(runtimeLines(saving, 3_670_016).find((l) => l.key === 'arena')!.atLeast).toBeUndefined();
  });

  it('says TFLM’s own head, heapscope’s head with its saving, the tail and the arena, each with its figure', () => {
    const lines = runtimeLines(saving, 3_670_016);
    expect(lines.map((l) => [l.key, l.bytes])).toEqual([
      ['tflm', 4_194_304],
      ['planned', 3_670_016],
      ['tail', 24_328],
      ['arena', 4_218_640],
    ]);
    expect(lines[0]!.text).toBe('The head its GreedyMemoryPlanner lays out for this file, reproduced.');
    expect(lines[1]).toMatchObject({
      tone: 'good',
      text: 'The head TFLite Micro lays out when the file carries the tensor offsets of the plan on screen as its offline plan: 512 KiB (12.5 %) smaller than TFLite Micro’s own.',
    });
    expect(lines[2]!.text).toBe('What TFLite Micro keeps for the whole run, an estimate: allocators, kernel data are estimated, the rest counted exactly.');
    expect(lines[3]!.text).toBe(
      'For the file as it is; 3.52 MiB with heapscope’s plan. Why: the head and tail it ends up using; planning needs less in between. It rests on the tail’s estimate.',
    );
  });

  it('says why the heap’s peak differs from the head TFLM reaches with the plan written in', () => {
    const planned = runtimeLines({ ...saving, planned: { ...saving.planned, head: 3_700_000 } }, 3_670_016)[1]!;
    expect(planned.text).toContain('The heap’s 3.50 MiB places the kernels’ scratch buffers too; an offline plan carries tensor offsets only');
  });

  it('does not put a plan of the tensors alone down to scratch: the heap on screen is another plan (naive on mediapipe, 29.0 MiB)', () => {
    const alone = { ...saving.planned, source: 'the plan of the tensors alone' };
    const planned = runtimeLines({ ...saving, planned: alone }, 30_408_704)[1]!;
    expect(planned.text).not.toContain('scratch buffers too');
    expect(planned.text).toContain('The plan on screen peaks at 29.0 MiB; the file carries the other plan.');
  });

  it('says when the planned .tflite carries TFLM’s own greedy offsets', () => {
    const greedy = runtimeLines({ ...saving, planned: { ...saving.planned, head: saving.head, saving: 0, savingPercent: 0, source: "TFLite Micro's own greedy plan" } }, 4_200_000)[1]!;
    expect(greedy.text).toBe('The planned .tflite carries TFLite Micro’s own greedy offsets: heapscope’s plans, written in, lay out larger (the plan on screen: 4.01 MiB).');
  });

  it('says a head no smaller, and a plan of the tensors alone', () => {
    const same = runtimeLines({ ...saving, planned: { ...saving.planned, head: saving.head, saving: 0, savingPercent: 0, source: 'the plan of the tensors alone' } }, saving.head)[1]!;
    expect(same.tone).toBeUndefined();
    expect(same.text).toBe(
      'The head TFLite Micro lays out when the file carries a plan of the tensors alone (heapscope’s best without the scratch requests) as its offline plan: no smaller than TFLite Micro’s own. TFLite Micro lays it out smaller than the offsets on screen.',
    );
  });

  it('shows a file’s offline plan it cannot check, TFLM’s greedy head beside it, and the file’s plan kept', () => {
    const lines = runtimeLines(vela, 158_160);
    expect(lines.map((l) => [l.key, l.bytes])).toEqual([
      ['file', 74_464],
      ['greedy', 158_160],
      ['planned', 74_464],
      ['tail', 412],
      ['arena', 74_880],
    ]);
    expect(filePlanVerdict(vela)).toBe('unchecked');
    expect(lines[0]!.text).toBe(
      'The head TFLite Micro lays out with the plan the file carries. Not checked: it overlaps tensors of the custom operator ethos-u_0, which may use them one after another, a schedule heapscope cannot see (a and b are live at once and share bytes from 0).',
    );
    expect(lines[2]!.text).toBe(
      'The planned .tflite keeps the file’s own offline plan: heapscope’s plans, written in, lay out larger (the plan on screen: 154 KiB).',
    );
    expect(lines[4]!.text).toContain('For the file as it is; the same with heapscope’s plan.');
  });

  it('marks a file plan that shares bytes between live tensors, and a valid one', () => {
    const invalid = { ...vela, filePlan: { head: 1, valid: false, problem: 'a and b are live at once and share bytes from 0' } };
    expect(filePlanVerdict(invalid)).toBe('invalid');
    expect(runtimeLines(invalid, 1)[0]).toMatchObject({ tone: 'bad', text: expect.stringContaining('Not valid by TFLite Micro’s lifetimes: a and b are live at once and share bytes from 0; TFLite Micro uses it as written.') });
    const valid = { ...vela, filePlan: { head: 1, valid: true } };
    expect(filePlanVerdict(valid)).toBe('valid');
    expect(runtimeLines(valid, 1)[0]!.text).toContain('Valid: no two tensors live at once share a byte.');
    expect(filePlanVerdict(saving)).toBeUndefined();
  });

  it('says an exact tail as exact', () => {
    const exact = { ...saving, tailEstimated: false, tailParts: saving.tailParts.filter((p) => !p.estimated) };
    expect(estimatedPartsText(exact)).toBeUndefined();
    expect(runtimeLines(exact, 0)[2]!.text).toBe('What TFLite Micro keeps for the whole run, every part counted exactly.');
    expect(runtimeLines(exact, 0)[3]!.text).not.toContain('estimate');
  });
});

describe('runtimeLines on the planner’s own runtime plans', () => {
  const plan = (file: string) => {
    const model = inferShapes(decodeModel(new Uint8Array(readFileSync(join(MODELS, file)))));
    return planForSettings(model, { target: 'tflm', strategy: undefined });
  };

  it.skipIf(!existsSync(join(MODELS, 'tflm_hello_world_int8.tflite')))('knows the source the planner writes for a plain model', () => {
    const p = plan('tflm_hello_world_int8.tflite');
    const lines = runtimeLines(p.runtimePlan!, p.peak);
    expect(lines.find((l) => l.key === 'tflm')?.bytes).toBe(p.runtimePlan!.head);
    expect(lines.find((l) => l.key === 'planned')?.text).toContain('the tensor offsets of the plan on screen');
  });

  it.skipIf(!existsSync(join(MODELS, 'tflm_person_detect_vela.tflite')))('knows the source the planner writes when it keeps the file’s plan', () => {
    const p = plan('tflm_person_detect_vela.tflite');
    expect(filePlanVerdict(p.runtimePlan!)).toBe('unchecked');
    expect(runtimeLines(p.runtimePlan!, p.peak).find((l) => l.key === 'planned')?.text).toContain('The planned .tflite keeps the file’s own offline plan');
  });
});

describe('plannedTfliteContents', () => {
  it('names what the planned .tflite carries, which is not always the plan on screen', () => {
    expect(plannedTfliteContents(saving)).toBe('the tensor offsets of the plan on screen');
    expect(plannedTfliteContents({ ...saving, planned: { ...saving.planned, source: 'the plan of the tensors alone' } })).toBe('a plan of the tensors alone (heapscope’s best without the scratch requests)');
    expect(plannedTfliteContents({ ...saving, planned: { ...saving.planned, source: "the file's own offline plan" } })).toBe('the file’s own offline plan');
    expect(plannedTfliteContents({ ...saving, planned: { ...saving.planned, source: "TFLite Micro's own greedy plan" } })).toBe('TFLite Micro’s own greedy offsets');
  });
});
