// The weights of a model whose largest weights sit in a Loop body, with an If
// nested there: plan counts every body's weights, once each, in its text, its
// --json and the bytes a region sets aside for them.

import { describe, expect, it } from 'vitest';
import { BODY_WEIGHTS, bodyWeightsModel } from '../src/model/testing/body-weights-model';
import { formatBytes } from '../src/shared/format';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const file = tempFiles('body-weights');
const MODEL = file('decoder.onnx', bodyWeightsModel());
const { total } = BODY_WEIGHTS;

describe('plan counts the weights of If/Loop/Scan bodies', () => {
  it('gives the weights of the main graph, the Loop body and the If nested in it, each once, in the text and --json', () => {
    expect(total.bytes).toBe(256_777);
    const text = run(['plan', MODEL]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`\n  weights       ${formatBytes(total.bytes)} in 6 tensors (`);
    expect(planJson([MODEL]).weights).toEqual({ region: 'weights', bytes: total.bytes, tensors: total.tensors, unknownSizes: 0 });
  });

  it('sets all of them aside in the region that holds the weights, and copies all of them there', () => {
    const held = planJson([MODEL, '--weights', 'ram']);
    const ram = held.regions.find((r: { name: string }) => r.name === 'ram');
    expect(ram.weights).toBe(Math.ceil(total.bytes / 64) * 64);
    expect(ram.used).toBe(ram.peak + ram.weights);
    expect(held.storage.weights).toMatchObject({ in: 'ram', bytes: total.bytes });
    const written = (weights: string) => planJson([MODEL, '--target', 'mcu', '--weights', weights]).regions.find((r: { name: string }) => r.name === 'ext-ram').moved.written;
    expect(written('copy-to:ext-ram') - written('ext-ram')).toBe(total.bytes);
  });
});
