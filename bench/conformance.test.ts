import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NODE_TESTS, runConformance, type ConformanceReport } from './conformance-run';

/** A spread of node tests over the op families, including multi-node (expanded) graphs. */
const SAMPLE = new Set([
  'test_conv_with_strides_padding',
  'test_convtranspose_output_shape',
  'test_maxpool_2d_ceil',
  'test_gemm_default_no_bias',
  'test_matmul_4d',
  'test_einsum_batch_matmul',
  'test_batchnorm_epsilon_training_mode',
  'test_layer_normalization_4d_axis1',
  'test_reduce_sum_keepdims_example',
  'test_lstm_defaults',
  'test_gru_batchwise',
  'test_dft',
  'test_stft',
  'test_reshape_reduced_dims',
  'test_range_float_type_positive_delta_expanded',
]);

const present = existsSync(DEFAULT_NODE_TESTS);
if (!present) console.log(`conformance test skipped: ${DEFAULT_NODE_TESTS} not found (apt-get install -y libonnx-testdata)`);

describe.skipIf(!present)('shape-inference conformance on ONNX node tests', () => {
  let report: ConformanceReport;
  beforeAll(() => {
    report = runConformance(DEFAULT_NODE_TESTS, { filter: (name) => SAMPLE.has(name) });
  });

  it('runs every sampled test dir', () => {
    expect(report.cases.map((c) => c.name).sort()).toEqual([...SAMPLE].sort());
  });

  it('infers every output shape of the sampled tests exactly', () => {
    const wrong = report.cases.filter((c) => c.status !== 'right').map((c) => `${c.name}: ${c.status} ${c.detail}`);
    expect(wrong).toEqual([]);
    expect(report.share).toBe(100);
  });

  it('compares real dims, not declared ones', () => {
    const conv = report.cases.find((c) => c.name === 'test_conv_with_strides_padding');
    expect(conv?.outputs[0]?.expected).toEqual([1, 1, 4, 3]);
    expect(conv?.outputs[0]?.inferred).toEqual([1, 1, 4, 3]);
  });

  it('resolves data-dependent outputs exactly from the recorded inputs', () => {
    const unique = runConformance(DEFAULT_NODE_TESTS, { filter: (name) => name.startsWith('test_unique_') });
    expect(unique.total).toBeGreaterThan(3);
    expect(unique.right).toBe(unique.total);
  });

  it('groups failures by op type', () => {
    // StringNormalizer drops stopwords from string data; string values are not propagated.
    const strings = runConformance(DEFAULT_NODE_TESTS, { filter: (name) => name === 'test_strnormalizer_export_monday_casesensintive_lower' });
    expect(strings.right).toBe(0);
    expect([...strings.failuresByOp.keys()]).toEqual(['StringNormalizer']);
  });

  it('gets at least 97% of the whole node suite fully right', () => {
    const all = runConformance(DEFAULT_NODE_TESTS);
    expect(all.total).toBeGreaterThan(900);
    expect(all.right / all.total).toBeGreaterThanOrEqual(0.97);
  });
});
