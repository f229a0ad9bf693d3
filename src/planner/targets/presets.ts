// The target presets that ship with heapscope, by the names DESIGN.md fixes:
// cpu, mcu, accelerator, phone, phone-dsp (NPU + DSP + CPU compute units), and
// tflm (TensorFlow Lite Micro's tensor arena, for .tflite models).
// Written as profile documents and read through the same parser as a user's
// file, so they are valid by construction.
// Depends only on the planner's target module.

import { InputError } from '../../shared/errors';
import { type TargetProfile } from './target';
import { parseTarget } from './parse';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Conv's im2col: (C_in per group) × kH × kW × H_out × W_out × bytes per element. */
export const IM2COL_FORMULA = 'in1[1] * in1[2] * in1[3] * out0[2] * out0[3] * elem(in0)';

const DOCUMENTS: readonly object[] = [
  {
    name: 'cpu',
    description: 'generic host: one RAM arena, 64-byte alignment, no fusion, no scratch rules',
    regions: [{ name: 'ram', alignment: 64, fast: false }],
    computeUnits: [{ name: 'cpu', opTypes: ['*'], dtype: { activations: 'model' }, alignment: 64 }],
    // a host, as the accelerator and phones below, has no flash: weights in no region are loaded or mapped by the runtime
    planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'ram', weightsHome: 'runtime' },
  },
  {
    name: 'mcu',
    description: 'microcontroller: fast on-chip SRAM plus slow external RAM, per-op scratch buffers placed by M4',
    regions: [
      { name: 'sram', sizeLimit: 512 * KiB, alignment: 16, fast: true },
      { name: 'ext-ram', sizeLimit: 8 * MiB, alignment: 16, fast: false },
    ],
    computeUnits: [{ name: 'cortex-m', opTypes: ['*'], dtype: { activations: 'model' }, alignment: 16 }],
    scratch: {
      rules: [
        { opType: 'Conv', name: 'im2col', formula: IM2COL_FORMULA, latencyCritical: true },
        { opType: 'Conv', name: 'workspace', bytes: 2 * KiB, variable: true },
        { opType: 'Gemm', name: 'accumulators', formula: 'out0[-1] * 4', latencyCritical: true, overlay: true },
        { opType: 'MatMul', name: 'accumulators', formula: 'out0[-1] * 4', latencyCritical: true, overlay: true },
        { opType: 'Softmax', name: 'exp-table', bytes: 1 * KiB, latencyCritical: true },
        { opType: 'MaxPool', name: 'row-buffer', formula: 'in0[1] * in0[-1] * elem(in0)' },
        { opType: 'AveragePool', name: 'row-buffer', formula: 'in0[1] * in0[-1] * elem(in0)' },
      ],
      placement: 'free-areas',
      side: 'bottom',
      grow: 'top',
      retries: true,
      criterion: 'no-growth',
    },
    planning: { strategy: 'best', order: 'memory-aware', graphIo: 'whole-run', activationRegion: 'sram' },
  },
  {
    name: 'accelerator',
    description: 'multi-core accelerator cluster: DRAM, shared SRAM, per-core NRAM and WRAM; fusion units (M2)',
    regions: [
      { name: 'dram', alignment: 64, fast: false },
      { name: 'sram', sizeLimit: 4 * MiB, alignment: 64, fast: true },
      { name: 'nram', sizeLimit: 512 * KiB, alignment: 64, fast: true },
      { name: 'wram', sizeLimit: 1 * MiB, alignment: 64, fast: true },
    ],
    computeUnits: [{ name: 'cluster', opTypes: ['*'], dtype: { activations: 'model' }, alignment: 64 }],
    fusion: {
      onChipRegion: 'sram',
      sramBytes: 4 * MiB,
      nramBytes: 512 * KiB,
      wramBytes: 1 * MiB,
      coresPerCluster: 4,
      rules: {
        start: 'first-conv-pool',
        direction: 'backward-then-forward',
        preferBlocks: true,
        singleOutput: true,
        minMainLayers: 2,
        mainMainNonMain: false,
        scalarThenVector: false,
        skipSharedWeights: true,
        redundancyPercent: 100,
        strideRedundancy: 4,
        maxSmallMaps: 8,
        split: 'large-to-small',
      },
    },
    planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'dram', weightsHome: 'runtime' },
  },
  {
    name: 'phone',
    description: 'phone SoC: NPU (int8) and CPU compute units over DRAM, NPU SRAM, depthwise+pointwise cache (M3, M5)',
    regions: [
      { name: 'dram', alignment: 64, fast: false },
      { name: 'npu-sram', sizeLimit: 2 * MiB, alignment: 64, fast: true },
    ],
    computeUnits: [
      {
        name: 'npu',
        opTypes: [
          'Conv', 'ConvTranspose', 'MatMul', 'Gemm', 'Add', 'Mul', 'Relu', 'Clip', 'Sigmoid', 'HardSwish', 'MaxPool',
          'AveragePool', 'GlobalAveragePool', 'Concat', 'Resize', 'BatchNormalization', 'QuantizeLinear', 'DequantizeLinear',
        ],
        dtype: { activations: 'int8', fakeQuantization: true },
        alignment: 64,
        constraints: { maxConvKernel: 7 },
      },
      { name: 'cpu', opTypes: ['*'], dtype: { activations: 'float32' }, alignment: 16 },
    ],
    fusion: {
      templateUnits: false,
      onChipRegion: 'npu-sram',
      sramBytes: 2 * MiB,
      nramBytes: 0,
      wramBytes: 0,
      coresPerCluster: 1,
      dwPwCacheBytes: 256 * KiB,
    },
    planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'dram', weightsHome: 'runtime' },
  },
  {
    name: 'phone-dsp',
    description: 'phone SoC with a DSP: NPU (int8), DSP (int16, 128-byte vectors) and CPU fallback over DRAM (M3)',
    regions: [{ name: 'dram', alignment: 64, fast: false }],
    computeUnits: [
      {
        name: 'npu',
        opTypes: [
          'Conv', 'ConvTranspose', 'MatMul', 'Gemm', 'Add', 'Mul', 'Relu', 'Clip', 'Sigmoid', 'HardSwish', 'MaxPool',
          'AveragePool', 'GlobalAveragePool', 'Concat', 'Resize', 'BatchNormalization', 'QuantizeLinear', 'DequantizeLinear',
        ],
        dtype: { activations: 'int8', fakeQuantization: true },
        alignment: 64,
        constraints: { maxConvKernel: 7 },
      },
      {
        name: 'dsp',
        opTypes: [
          'Conv', 'Softmax', 'Tanh', 'Exp', 'Sub', 'Div', 'Pow', 'Sqrt', 'Erf', 'ReduceMean', 'LayerNormalization',
          'Transpose', 'Reshape', 'Flatten', 'Split', 'Slice', 'Gather', 'LeakyRelu', 'PRelu', 'GlobalMaxPool',
        ],
        dtype: { activations: 'int16', fakeQuantization: true },
        alignment: 128,
      },
      { name: 'cpu', opTypes: ['*'], dtype: { activations: 'float32' }, alignment: 16 },
    ],
    planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'dram', weightsHome: 'runtime' },
  },
  {
    name: 'tflm',
    description: "TensorFlow Lite Micro on a 32-bit microcontroller: one 16-byte-aligned tensor arena; for a .tflite model, the runtime's own plan reproduced beside heapscope's, the persistent section and the arena to declare",
    regions: [{ name: 'arena', alignment: 16, fast: true }],
    computeUnits: [{ name: 'cortex-m', opTypes: ['*'], dtype: { activations: 'model' }, alignment: 16 }],
    planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'arena', runtime: 'tflm' },
  },
];

/** The presets, by name, in the order `targets` lists them. */
export const PRESETS: ReadonlyMap<string, TargetProfile> = new Map(
  DOCUMENTS.map((doc) => {
    const profile = parseTarget(doc);
    return [profile.name, profile];
  }),
);

/** Preset names, in listing order. */
export const PRESET_NAMES: readonly string[] = [...PRESETS.keys()];

/** The preset a plan uses when none is named. */
export const DEFAULT_TARGET = 'cpu';

/** The preset named `name`; throws InputError('bad-target') listing the presets otherwise. */
export function presetTarget(name: string): TargetProfile {
  const preset = PRESETS.get(name);
  if (preset === undefined) {
    throw new InputError('bad-target', `unknown target preset "${name}" (presets: ${PRESET_NAMES.join(', ')})`);
  }
  return preset;
}
