// A DEQUANTIZE of a constant weight is run at each inference by TensorFlow Lite
// Micro, which plans its output in the arena: on tflm that tensor is an
// activation and its node is run; on a target that folds constants it stays a
// constant, as does a constant the plan does not place.

import { describe, expect, it } from 'vitest';
import { planModel } from '../planner/plan';
import { presetTarget } from '../planner/targets/presets';
import { plannedConstants, plannedKind } from './planned-constants';
import { dequantizeModel } from './testing/dequantize-model';

const model = dequantizeModel();
const dequantize = model.nodes.findIndex((n) => n.opType === 'DEQUANTIZE');
const valueOf = (name: string) => model.values.find((v) => v.name === name)!;

describe('constants the plan places', () => {
  it('the model computes the DEQUANTIZE of a weight from constants alone', () => {
    expect(valueOf('w').kind).toBe('constant');
    expect(model.nodes[dequantize]!.constant).toBe(true);
  });

  it('on tflm are its output, an activation, and the DEQUANTIZE, run', () => {
    const plan = planModel(model, presetTarget('tflm'));
    expect(plan.buffers.map((b) => b.name)).toContain('w');
    const planned = plannedConstants(model, plan);
    expect([...planned.values]).toEqual(['w']);
    expect([...planned.nodes]).toEqual([dequantize]);
    expect(plannedKind(valueOf('w'), planned)).toBe('activation');
    expect(plannedKind(valueOf('w16'), planned)).toBe('initializer');
    expect(plannedKind(valueOf('y'), planned)).toBe('output');
    // the same plan gives the same answer, for the views' memoized selectors
    expect(plannedConstants(model, plan)).toBe(planned);
  });

  it('on a target that folds constants, and without a plan, are none: the output stays a constant', () => {
    for (const planned of [plannedConstants(model, planModel(model, presetTarget('cpu'))), plannedConstants(model, undefined)]) {
      expect(planned.values.size).toBe(0);
      expect(planned.nodes.size).toBe(0);
      expect(plannedKind(valueOf('w'), planned)).toBe('constant');
    }
  });

  it('are matched by the tensor and the node writing it, never by a scratch buffer or a namesake of another node', () => {
    const other = (node: string, kind = 'activation') => ({ buffers: [{ name: 'w', kind, node }] });
    expect(plannedConstants(model, other(model.nodes[dequantize]!.name, 'scratch')).values.size).toBe(0);
    expect(plannedConstants(model, other('WHILE_body/DEQUANTIZE')).values.size).toBe(0);
    expect([...plannedConstants(model, other(model.nodes[dequantize]!.name)).values]).toEqual(['w']);
  });
});

describe('constants the plan places, across replans', () => {
  it('are the same object for another plan placing the same constants, so the views keyed on them keep their work', () => {
    const first = plannedConstants(model, planModel(model, presetTarget('tflm')));
    const again = plannedConstants(model, planModel(model, presetTarget('tflm')));
    expect(again).toBe(first);
    // a plan placing other constants is another answer
    const none = plannedConstants(model, { buffers: [] });
    expect(none.values.size).toBe(0);
    expect(plannedConstants(model, planModel(model, presetTarget('tflm')))).not.toBe(none);
  });
});
