import { describe, expect, it } from 'vitest';
import { exportStem } from './export-names';

describe('export file names', () => {
  it('drop the extension and add the user dims in name order', () => {
    expect(exportStem('sample.onnx', { seq: 128, batch: 4 })).toBe('sample.batch-4.seq-128');
    expect(exportStem('https://x.example/models/net.ORT', {})).toBe('net');
  });

  it('keep only characters safe in file names', () => {
    expect(exportStem('my model (v2).onnx', { 'input_ids:0': 2 })).toBe('my_model_v2_.input_ids_0-2');
    expect(exportStem('.onnx', {})).toBe('model');
  });
});
