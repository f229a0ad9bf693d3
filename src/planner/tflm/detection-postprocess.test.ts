// The scratch an SSD detector's last operator requests in TensorFlow Lite Micro:
// the custom TFLite_Detection_PostProcess kernel asks for eleven buffers in its
// Prepare (detection_postprocess.cc), sized from its inputs and from the
// max_detections and num_classes of its FlexBuffer options. Built as a file,
// decoded, and planned as TFLM plans it.

import { encode } from 'flatbuffers/mjs/flexbuffers.js';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { writeTflite } from '../../model/testing/tflite-writer';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { tflmAllocation } from './allocation-info';
import { tflmArena } from './tail';
import { customOptions } from '../../model/tflite/custom-options';

/** An SSD head: box encodings [1, boxes, 4] and class predictions [1, boxes, classes + 1] into the post-process, four outputs. */
function ssdHead(boxes: number, classes: number, options: Uint8Array | undefined): Uint8Array {
  return writeTflite({
    subgraphs: [
      {
        tensors: [
          { shape: [1, boxes, 4], name: 'box_encodings' },
          { shape: [1, boxes, classes + 1], name: 'class_predictions' },
          { shape: [boxes, 4], name: 'anchors', data: new Uint8Array(boxes * 16) },
          { shape: [1, 10, 4], name: 'detection_boxes' },
          { shape: [1, 10], name: 'detection_classes' },
          { shape: [1, 10], name: 'detection_scores' },
          { shape: [1], name: 'num_detections' },
        ],
        inputs: [0, 1],
        outputs: [3, 4, 5, 6],
        operators: [{ op: 'TFLite_Detection_PostProcess', custom: true, inputs: [0, 1, 2], outputs: [3, 4, 5, 6], ...(options !== undefined && { customOptions: options }) }],
      },
    ],
  });
}

const OPTIONS = encode({ max_detections: 10, max_classes_per_detection: 1, num_classes: 90, nms_score_threshold: 0.3, nms_iou_threshold: 0.6, y_scale: 10, x_scale: 10, h_scale: 5, w_scale: 5, use_regular_nms: false });

describe('TFLite_Detection_PostProcess on TensorFlow Lite Micro', () => {
  it('reads max_detections and num_classes from the FlexBuffer options', () => {
    const op = decodeModel(ssdHead(1917, 90, OPTIONS)).tflite!.subgraphs[0]!.operators[0]!;
    expect(op.customOptions).toEqual({ numbers: { max_detections: 10, max_classes_per_detection: 1, num_classes: 90, use_regular_nms: 0 } });
  });

  it('requests the eleven scratch buffers of its Prepare, live while it runs (SSD MobileNet: 1,917 boxes, 90 classes, 10 detections)', () => {
    const tflite = decodeModel(ssdHead(1917, 90, OPTIONS)).tflite!;
    const allocation = tflmAllocation(tflite);
    const scratch = allocation.buffers.filter((b) => b.kind === 'scratch');
    const b = 1917;
    expect(scratch.map((s) => s.bytes)).toEqual([b, b * 16, b * 91 * 4, b * 4, b * 4, 10 * b * 4, 10 * b * 4, b * 4, 10 * b * 4, 90 * b * 4, 10 * b * 4]);
    expect(allocation.notes).toEqual([]);
    const plan = planModel(inferShapes(decodeModel(ssdHead(1917, 90, OPTIONS))), presetTarget('tflm'));
    // every request is live at once with the inputs and outputs: the head holds them all
    const requested = scratch.reduce((sum, s) => sum + s.size, 0);
    expect(plan.runtimePlan!.head).toBeGreaterThanOrEqual(requested);
    expect(plan.peak).toBeGreaterThanOrEqual(requested);
  });

  it('keeps its OpData (112 B) in the tail and no builtin parameters', () => {
    const tflite = decodeModel(ssdHead(100, 3, OPTIONS)).tflite!;
    const parts = tflmArena(tflite, tflmAllocation(tflite), 0).parts;
    expect(parts.find((p) => p.what === 'kernel data')?.bytes).toBe(112);
    expect(parts.find((p) => p.what === 'builtin parameters')).toBeUndefined();
  });

  it('without options: max_detections and num_classes read as 0, as the kernel reads a missing key', () => {
    const allocation = tflmAllocation(decodeModel(ssdHead(100, 3, undefined)).tflite!);
    expect(allocation.buffers.filter((b) => b.kind === 'scratch').map((s) => s.bytes)).toEqual([100, 1600, 1600, 400, 400, 0, 0, 400, 0, 0, 0]);
  });

  it('damaged options: says its scratch is not known and assumes none', () => {
    const tflite = decodeModel(ssdHead(100, 3, new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x7f, 0x01]))).tflite!;
    const allocation = tflmAllocation(tflite);
    expect(allocation.buffers.filter((b) => b.kind === 'scratch')).toEqual([]);
    expect(allocation.notes).toHaveLength(1);
    expect(allocation.notes[0]).toMatch(/^custom operator TFLite_Detection_PostProcess \(TFLite_Detection_PostProcess_0\): its options are not a .*FlexBuffer.*, so its scratch requests are not known; none are assumed$/);
  });

  it('reads narrow maps (1-byte elements) and indirect numbers as the converter may write them', () => {
    expect(customOptions('TFLite_Detection_PostProcess', encode({ max_detections: 3, num_classes: 2 }))).toEqual({ numbers: { max_detections: 3, num_classes: 2 } });
    expect(customOptions('TFLite_Detection_PostProcess', encode({ max_detections: 2 ** 40, num_classes: 7 }))).toEqual({ numbers: { max_detections: 2 ** 40, num_classes: 7 } });
    expect(customOptions('SomeOtherOp', encode({ a: 1 }))).toBeUndefined();
  });

  it('any damage to the options is answered, never thrown, in one pass', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    let unreadable = 0;
    for (let n = 0; n < 3000; n++) {
      const bytes = OPTIONS.slice(0, 1 + Math.floor(random() * OPTIONS.length));
      for (let k = Math.floor(random() * 4); k > 0; k--) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const read = customOptions('TFLite_Detection_PostProcess', bytes)!;
      if ('unreadable' in read) unreadable++;
      else for (const v of Object.values(read.numbers)) expect(typeof v).toBe('number');
    }
    expect(unreadable).toBeGreaterThan(1000);
  });
});
