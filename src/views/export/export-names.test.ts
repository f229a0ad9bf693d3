import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../../planner/plan';
import { presetTarget } from '../../planner/targets/presets';
import { exportStem, exportTitle, plannedTfliteName, sidePlanFileName } from './export-names';

describe('export file names', () => {
  it('drop the extension and add the user dims in name order', () => {
    expect(exportStem('sample.onnx', { seq: 128, batch: 4 })).toBe('sample.batch-4.seq-128');
    expect(exportStem('https://x.example/models/net.ORT', {})).toBe('net');
  });

  it('name the target and strategy of the plan, so exports of two targets do not overwrite each other', () => {
    expect(exportStem('sample.onnx', { batch: 2 }, { target: 'accelerator', strategy: 'best' })).toBe('sample.accelerator.best.batch-2');
    expect(exportStem('sample.onnx', {}, { target: 'cpu', strategy: 'greedy-by-size' })).toBe('sample.cpu.greedy-by-size');
  });

  it('name a planned TensorFlow Lite model by the model without its extension, the target and the strategy', () => {
    expect(exportStem('tflm_person_detect.tflite', {})).toBe('tflm_person_detect');
    expect(plannedTfliteName('models/tflm_person_detect.tflite', {}, { target: 'tflm', strategy: 'best' })).toBe('tflm_person_detect.tflm.best.planned.tflite');
    expect(plannedTfliteName('kws.TFLITE', { batch: 1 }, { target: 'tflm', strategy: 'm1' })).toBe('kws.tflm.m1.batch-1.planned.tflite');
  });

  it('keep only characters safe in file names', () => {
    expect(exportStem('my model (v2).onnx', { 'input_ids:0': 2 })).toBe('my_model_v2_.input_ids_0-2');
    expect(exportStem('.onnx', {})).toBe('model');
  });
});

describe('export titles', () => {
  it('give the peak and bound in human units with the model, strategy and target', () => {
    expect(exportTitle('net.onnx', { target: 'cpu', strategy: 'best', peak: 24_729_600, lowerBound: 1536, complete: true })).toBe('net.onnx · peak 23.6 MiB · lower bound 1.50 KiB · best on cpu');
  });

  it('say when the peak is a lower estimate', () => {
    expect(exportTitle('net.onnx', { target: 'mcu', strategy: 'tflm', peak: 2048, lowerBound: 1024, complete: false })).toBe(
      'net.onnx · peak at least 2.00 KiB (lower estimate: some sizes are unknown) · lower bound 1.00 KiB · tflm on mcu',
    );
  });

  it("name a peak of several memories the sum of each memory's own peak, as the page's headline does, and one memory's bare", () => {
    const regions = [
      { name: 'sram', peak: 998_400 },
      { name: 'ext-ram', peak: 4_917_248 },
    ];
    expect(exportTitle('net.onnx', { target: 'mcu', strategy: 'best', peak: 5_915_648, lowerBound: 1024, complete: true, regions })).toBe(
      "net.onnx · peak 5.64 MiB (the sum of each memory's own peak, sram 975 KiB + ext-ram 4.69 MiB) · lower bound 1.00 KiB · best on mcu",
    );
    expect(exportTitle('net.onnx', { target: 'mcu', strategy: 'best', peak: 4_917_248, lowerBound: 1024, complete: true, regions: [{ name: 'sram', peak: 0 }, regions[1]!] })).toBe(
      'net.onnx · peak 4.69 MiB · lower bound 1.00 KiB · best on mcu',
    );
  });
});

describe('export titles name what the plan was made with', () => {
  it('the dims the user bound, then the defaults the plan assumes, then the shapes and input values given', () => {
    const assumptions = {
      dims: [
        { name: 'past_seq_len', value: 64, bound: true, axes: [], rule: '' },
        { name: 'seq_len', value: 128, bound: false, axes: [], rule: '' },
      ],
      shapes: { data_0: [1, 3, 256, 256] },
      inputValues: { rate: [16000] },
    };
    expect(exportTitle('gpt2.onnx', { target: 'mcu', strategy: 'best', peak: 778_240, lowerBound: 778_240, complete: true, assumptions })).toBe(
      'gpt2.onnx · peak 760 KiB · lower bound 760 KiB · best on mcu · past_seq_len=64 · assumes seq_len=128 (default) · data_0=1×3×256×256 · rate=[16000]',
    );
  });

  it('every default dim the plan rests on, by name, when the user set none', () => {
    const dim = (name: string, value: number) => ({ name, value, bound: false, axes: [], rule: '' });
    const assumptions = { dims: [dim('seq_len', 128), dim('batch_size', 1), dim('total_seq_len', 128)], shapes: {}, inputValues: {} };
    expect(exportTitle('gpt2.onnx', { target: 'cpu', strategy: 'best', peak: 1024, lowerBound: 1024, complete: true, assumptions })).toBe(
      'gpt2.onnx · peak 1.00 KiB · lower bound 1.00 KiB · best on cpu · assumes batch_size=1, seq_len=128, total_seq_len=128 (defaults)',
    );
  });
});

describe('export titles of a real model', () => {
  const GPT2 = join(process.cwd(), '..', 'shared', 'models', 'tiny-random-gpt2-fp32-past.onnx');
  it.skipIf(!existsSync(GPT2))('GPT-2 with only past_seq_len=64 states the defaults the banner names: seq_len=128, and the total 192 it makes', () => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(GPT2))), { dims: { past_seq_len: 64 } });
    const plan = planModel(model, presetTarget('mcu'));
    const title = exportTitle('tiny-random-gpt2-fp32-past.onnx', plan);
    expect(title).toMatch(/ · past_seq_len=64 · assumes batch_size=1, seq_len=128, total_seq_len=192 \(defaults\)$/);
  });
});

describe('export titles list what was given by name', () => {
  it('dims, shapes and input values each sorted by name, whatever order the model has them in', () => {
    const dim = (name: string, value: number) => ({ name, value, bound: true, axes: [], rule: '' });
    const assumptions = { dims: [dim('seq_len', 16), dim('batch', 2), dim('past', 8)], shapes: { y: [2], x: [1] }, inputValues: { b: [1], a: [2] } };
    expect(exportTitle('m.onnx', { target: 'cpu', strategy: 'best', peak: 1024, lowerBound: 1024, complete: true, assumptions })).toBe(
      'm.onnx · peak 1.00 KiB · lower bound 1.00 KiB · best on cpu · batch=2 · past=8 · seq_len=16 · x=1 · y=2 · a=[2] · b=[1]',
    );
  });
});

describe('plan files of a comparison', () => {
  it("are named by each side's model, target, strategy and dims, then the side", () => {
    const side = (target: string, strategy: string, batch: number) => ({ model: 'models/sample.onnx', settings: { dims: { batch } }, plan: { target, strategy } });
    expect(sidePlanFileName('a', side('cpu', 'best', 1))).toBe('sample.cpu.best.batch-1.a.plan.json');
    expect(sidePlanFileName('b', side('mcu', 'tflm', 4))).toBe('sample.mcu.tflm.batch-4.b.plan.json');
  });

  it('name a plan shown alone, no side of a comparison, without .a or .b', () => {
    // the Saved plan dialog saved "sample.cpu.best.batch-1.a.plan.json" with no comparison open
    expect(sidePlanFileName(undefined, { model: 'models/sample.onnx', settings: { dims: { batch: 1 } }, plan: { target: 'cpu', strategy: 'best' } })).toBe('sample.cpu.best.batch-1.plan.json');
  });

  it('name the dims the user gave, as Export names the same plan, not the defaults the file records beside them', () => {
    const dim = (name: string, value: number, bound: boolean, derived?: true) => ({ name, value, bound, axes: [], rule: '', ...(derived && { derived }) });
    const dims = [dim('batch_size', 1, false), dim('past_seq_len', 128, true), dim('seq_len', 128, false), dim('total_seq_len', 256, true, true)];
    const file = { model: 'gpt2.onnx', settings: { dims: { batch_size: 1, past_seq_len: 128, seq_len: 128, total_seq_len: 256 } }, plan: { target: 'cpu', strategy: 'best', assumptions: { dims } } };
    expect(sidePlanFileName('b', file)).toBe('gpt2.cpu.best.past_seq_len-128.b.plan.json');
    expect(sidePlanFileName('b', file)).toBe(`${exportStem('gpt2.onnx', { past_seq_len: 128 }, file.plan)}.b.plan.json`);
  });
});
