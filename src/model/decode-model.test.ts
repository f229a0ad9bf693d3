import { describe, expect, it } from 'vitest';
import { decodeModel, sniffModelHead } from './decode-model';
import { InputError } from '../shared/errors';

/** The error decodeModel throws for `bytes` named `name`. */
function errorOf(bytes: Uint8Array, name?: string): InputError {
  try {
    decodeModel(bytes, name === undefined ? {} : { name });
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('decoded');
}

const RAW_WEIGHTS = Uint8Array.from({ length: 512 }, (_, i) => (i * 73 + 11) & 0xff);

describe('a file that is no model', () => {
  it("is called an external weights file when its name is one's, whatever its bytes were taken for", () => {
    const sentence = "this looks like an ONNX model's external weights file (raw tensor data, not a model): open the .onnx model that refers to it";
    for (const name of ['model.onnx.data', 'model.onnx_data', 'weights.DATA']) {
      const error = errorOf(RAW_WEIGHTS, name);
      expect(error.code).toBe('not-onnx');
      expect(error.message).toBe(sentence);
    }
  });

  it('keeps the decoder’s own words under any other name, or none', () => {
    expect(errorOf(RAW_WEIGHTS, 'model.onnx').message).not.toMatch(/external weights/);
    expect(errorOf(RAW_WEIGHTS).message).not.toMatch(/external weights/);
    // An empty file is empty, whatever its name.
    expect(errorOf(new Uint8Array(0), 'model.onnx.data').code).toBe('empty-file');
  });

  it('is refused from its first bytes in the words the whole decode would use, an external weights file included', () => {
    const sniffed = (head: Uint8Array, name: string): string => {
      try {
        sniffModelHead(head, name, 2 ** 31 - 1);
      } catch (error) {
        if (error instanceof InputError) return error.message;
        throw error;
      }
      return 'passed';
    };
    const weights = Uint8Array.from({ length: 512 }, (_, i) => (i * 97 + 0xe7) & 0xff); // first byte 0xe7: no ModelProto tag
    for (const name of ['model.onnx.data', 'weights.data']) expect(sniffed(weights, name)).toBe(errorOf(weights, name).message);
    expect(sniffed(weights, 'model.onnx')).toMatch(/^this is not an ONNX or TensorFlow Lite model: its first byte \(0xe7\)/);
  });
});
