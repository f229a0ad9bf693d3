// Generated audio front ends, for the tests of the defaults a sample axis gets
// and of their shapes against ONNX Runtime: framing by a Conv or by an STFT
// over an input whose sample count no name explains. Test utility; no DOM.

import { GraphBuilder } from './onnx-writer';

/** audio [1, 1, samples] -> Conv(kernel, stride) -> Relu: a learned filterbank over frames. */
export function convFrontEnd(kernel: number, stride: number, dilation = 1): Uint8Array {
  const g = new GraphBuilder('filterbank');
  const x = g.input('audio', 'float32', [1, 1, 'samples']);
  const w = g.initializer('w', 'float32', [16, 1, kernel]);
  const y = g.node('Conv', [x, w], { kernel_shape: [kernel], strides: [stride], dilations: [dilation] });
  g.output(g.node('Relu', [y]), 'float32', undefined);
  return g.toBytes({ opset: 17 });
}

/** pcm [1, n] -> Unsqueeze -> STFT(frame step, window) -> ReduceSum: a spectrogram front end. */
export function stftFrontEnd(window: number, step: number): Uint8Array {
  const g = new GraphBuilder('spectrogram');
  const pcm = g.input('pcm', 'float32', [1, 'n']);
  const signal = g.node('Unsqueeze', [pcm, g.initializer('axes', 'int64', [1], [2])]);
  const spec = g.node('STFT', [signal, g.initializer('step', 'int64', [], [step]), g.initializer('window', 'float32', [window])], { onesided: 1 });
  g.output(g.node('ReduceSum', [spec, g.initializer('last', 'int64', [1], [3])], { keepdims: 0 }), 'float32', undefined);
  return g.toBytes({ opset: 17 });
}
