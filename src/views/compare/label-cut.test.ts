import { describe, expect, it } from 'vitest';
import { keptEnd } from './label-cut';

describe('which end of a side label stays in view when it is cut', () => {
  it('keeps the end of file names that share their start', () => {
    expect(keptEnd('tflm_person_detect.tflite', 'tflm_person_detect_vela.tflite')).toBe('end');
    expect(keptEnd('tflm_person_detect_vela.tflite', 'tflm_person_detect.tflite')).toBe('end');
  });

  it('keeps the end of settings labels when the last dim is the one that tells them apart', () => {
    const a = 'seq_len=128 · total_seq_len=128 · past_seq_len=0';
    const b = 'seq_len=1 · total_seq_len=9 · past_seq_len=8';
    expect(keptEnd(a, b)).toBe('end');
    expect(keptEnd(b, a)).toBe('end');
  });

  it('keeps the start of labels that differ at their start, and of a lone or identical label', () => {
    expect(keptEnd('fusion on · sram 4 KiB', 'fusion off · sram 4 KiB')).toBe('start');
    expect(keptEnd('a.onnx', 'b.onnx')).toBe('start');
    expect(keptEnd('model.onnx · mcu', undefined)).toBe('start');
    expect(keptEnd('model.onnx', 'model.onnx')).toBe('start');
  });
});
