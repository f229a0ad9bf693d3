import { describe, expect, it } from 'vitest';
import { chooseDropped, droppedNotice } from './dropped-files';

const named = (...names: string[]) => names.map((name) => ({ name }));

describe('several files dropped at once', () => {
  it('opens the first, says which one and which were not', () => {
    const choice = chooseDropped(named('winml_mnist.onnx', 'ultraface_RFB-320.onnx'))!;
    expect(choice.file.name).toBe('winml_mnist.onnx');
    expect(droppedNotice(choice.file.name, choice.left)).toBe('One model opens at a time: opened winml_mnist.onnx, not ultraface_RFB-320.onnx.');
  });

  it("opens the model rather than its external weights file dropped with it, in any order", () => {
    const choice = chooseDropped(named('model.onnx.data', 'model.onnx'))!;
    expect(choice.file.name).toBe('model.onnx');
    expect(choice.left).toEqual(['model.onnx.data']);
    // Only weights files: the first is opened, and says what it is.
    expect(chooseDropped(named('a.onnx_data', 'b.data'))!.file.name).toBe('a.onnx_data');
  });

  it('says nothing for one file, and lists at most three others', () => {
    expect(droppedNotice('a.onnx', [])).toBeUndefined();
    expect(chooseDropped([])).toBeUndefined();
    expect(droppedNotice('a.onnx', ['b', 'c', 'd', 'e', 'f'])).toBe('One model opens at a time: opened a.onnx, not b, c, d and 2 more.');
  });
});
