import { describe, expect, it } from 'vitest';
import { linkNoticeTitle } from './link-notice-words';
import { checkLinkSettings } from './link-settings';
import { notForOtherFile } from './startup';
import { parseUrlParams } from './url-params';

/** The settings of `params` that make a plan, as the page applies them before any model is open. */
function applied(params: ReturnType<typeof parseUrlParams>) {
  return checkLinkSettings({ target: params.target, strategy: params.strategy, edits: params.edits, budgetMs: params.budgetMs }, '', params.typed).settings;
}

describe('a link made for a local file when another model is opened instead', () => {
  it('says the link was made for another file and which settings applied, and names each setting of that model as left out', () => {
    const params = parseUrlParams('?file=tiny-random-gpt2-fp32-past.onnx&dim.past_seq_len=64&shape.x=1x4&select=node:y&target=mcu&region.sram.limit=100KiB');
    expect(notForOtherFile(params, applied(params), 'winml_mnist.onnx')).toEqual({
      file: 'file=tiny-random-gpt2-fp32-past.onnx: the link was made for this file, and winml_mnist.onnx was opened instead; target=mcu and region.sram.limit=100KiB applied to it, the settings of the model it was made for did not',
      leftOut: [
        'dim.past_seq_len=64: a setting of the model the link was made for, not applied to winml_mnist.onnx',
        'shape.x=1x4: a setting of the model the link was made for, not applied to winml_mnist.onnx',
        'select=node:y: a setting of the model the link was made for, not applied to winml_mnist.onnx',
      ],
    });
  });

  it("the notice's headline counts the settings left out, not the file the link was made for, whose target applied", () => {
    const params = parseUrlParams('?file=a.onnx&dim.past_seq_len=64&shape.x=1x4&select=node:y&target=mcu');
    const { leftOut } = notForOtherFile(params, applied(params), 'b.onnx');
    expect(linkNoticeTitle(leftOut.length, true)).toBe('The link was made for another file, and 3 parameters of it were left out');
    const one = parseUrlParams('?file=a.onnx&dim.batch=2&target=mcu');
    expect(linkNoticeTitle(notForOtherFile(one, applied(one), 'b.onnx').leftOut.length, true)).toBe('The link was made for another file, and a parameter of it was left out');
    // only the target, which applied: nothing of the link was left out
    const plain = parseUrlParams('?file=a.onnx&target=mcu');
    expect(notForOtherFile(plain, applied(plain), 'b.onnx').leftOut).toEqual([]);
    expect(linkNoticeTitle(0, true)).toBe('The link was made for another file');
    expect(linkNoticeTitle(2, false)).toBe('2 parameters of the link were left out');
  });

  it("names a comparison's B and the graph groups as the model's too, and says when none of the settings applied", () => {
    const params = parseUrlParams('?file=a.onnx&group.sc%3A%2Fx=open&compare=1&b.dim.batch=2');
    expect(notForOtherFile(params, applied(params), 'the sample model')).toEqual({
      file: 'file=a.onnx: the link was made for this file, and the sample model was opened instead; none of its settings applied to it',
      leftOut: [
        'group.sc:/x=open: a setting of the model the link was made for, not applied to the sample model',
        'compare=1: a setting of the model the link was made for, not applied to the sample model',
        'b.dim.batch=2: a setting of the model the link was made for, not applied to the sample model',
      ],
    });
  });

  it("cuts a long file name of the link as the page shows file names", () => {
    const name = `${'n'.repeat(5000)}.onnx`;
    const { file: line } = notForOtherFile(parseUrlParams(`?file=${name}&target=mcu`), { target: 'mcu' }, 'b.onnx');
    expect(line!.length).toBeLessThan(400);
    expect(line).toMatch(/^file=n+…: the link was made for this file, and b\.onnx was opened instead; target=mcu applied to it$/);
  });
});
