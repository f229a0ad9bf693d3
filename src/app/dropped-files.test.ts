import { describe, expect, it } from 'vitest';
import { chooseDropped, droppedNotice, openDropped } from './dropped-files';

const named = (...names: string[]) => names.map((name) => ({ name }));

/** Opens the files of a drop with `broken` failing to open, as the page does; the names tried, in order. */
async function dropOf(names: readonly string[], broken: readonly string[]) {
  const tried: string[] = [];
  const outcome = await openDropped(chooseDropped(named(...names))!, async (f) => {
    tried.push(f.name);
    return !broken.includes(f.name);
  });
  return { tried, outcome: outcome!, text: droppedNotice(outcome!) };
}

describe('several files dropped at once', () => {
  it('opens the first, says which one and which were not', async () => {
    const { tried, text } = await dropOf(['winml_mnist.onnx', 'ultraface_RFB-320.onnx'], []);
    expect(tried).toEqual(['winml_mnist.onnx']);
    expect(text).toBe('One model opens at a time: opened winml_mnist.onnx, not ultraface_RFB-320.onnx.');
  });

  it('tries the next model when the first cannot be opened, and never says the broken one was opened', async () => {
    // it read "One model opens at a time: opened truncated.onnx, not ultraface_RFB-320.onnx." beside the error
    const { tried, outcome, text } = await dropOf(['truncated.onnx', 'ultraface_RFB-320.onnx'], ['truncated.onnx']);
    expect(tried).toEqual(['truncated.onnx', 'ultraface_RFB-320.onnx']);
    expect(outcome).toEqual({ opened: 'ultraface_RFB-320.onnx', failed: ['truncated.onnx'], left: [] });
    expect(text).toBe('One model opens at a time: opened ultraface_RFB-320.onnx (could not open truncated.onnx).');
    const three = await dropOf(['bad.onnx', 'good.onnx', 'other.tflite'], ['bad.onnx']);
    expect(three.text).toBe('One model opens at a time: opened good.onnx (could not open bad.onnx), not other.tflite.');
  });

  it('says so when no model dropped opens', async () => {
    const { tried, outcome, text } = await dropOf(['a.onnx', 'b.tflite', 'a.onnx.data'], ['a.onnx', 'b.tflite']);
    expect(tried).toEqual(['a.onnx', 'b.tflite']);
    expect(outcome.opened).toBeUndefined();
    expect(text).toBe('Could not open a.onnx or b.tflite: no model dropped opens (a.onnx.data not tried).');
  });

  it('stops trying when something else took the page meanwhile', async () => {
    const tried: string[] = [];
    const outcome = await openDropped(chooseDropped(named('a.onnx', 'b.onnx'))!, async (f) => {
      tried.push(f.name);
      return undefined;
    });
    expect(outcome).toBeUndefined();
    expect(tried).toEqual(['a.onnx']);
  });

  it("opens the model rather than its external weights file dropped with it, in any order", () => {
    const choice = chooseDropped(named('model.onnx.data', 'model.onnx'))!;
    expect(choice.tries.map((f) => f.name)).toEqual(['model.onnx']);
    expect(choice.left).toEqual(['model.onnx.data']);
    // Only weights files: the first is opened, and says what it is.
    expect(chooseDropped(named('a.onnx_data', 'b.data'))!.tries.map((f) => f.name)).toEqual(['a.onnx_data']);
  });

  it('says an external weights file dropped with its model is data planning does not read, never a second model refused', async () => {
    // it read "One model opens at a time: opened model.onnx, not model.onnx.data."
    const { tried, text } = await dropOf(['model.onnx', 'model.onnx.data'], []);
    expect(tried).toEqual(['model.onnx']);
    expect(text).toBe('Opened model.onnx; model.onnx.data is external weights data, which planning does not read: it needs only the sizes the model states.');
    const both = await dropOf(['a.onnx', 'b.onnx', 'a.onnx_data', 'b.onnx_data'], []);
    expect(both.text).toBe('One model opens at a time: opened a.onnx, not b.onnx; a.onnx_data, b.onnx_data are external weights data, which planning does not read: it needs only the sizes the model states.');
  });

  it('says nothing for one file, and lists at most three others', () => {
    expect(droppedNotice({ opened: 'a.onnx', failed: [], left: [] })).toBeUndefined();
    expect(droppedNotice({ opened: undefined, failed: ['a.onnx'], left: [] })).toBeUndefined();
    expect(chooseDropped([])).toBeUndefined();
    expect(droppedNotice({ opened: 'a.onnx', failed: [], left: ['b', 'c', 'd', 'e', 'f'] })).toBe('One model opens at a time: opened a.onnx, not b, c, d and 2 more.');
  });
});
