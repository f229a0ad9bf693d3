import { describe, expect, it } from 'vitest';
import { applyTargetChange } from '../planner/explain/target-change';
import { presetTarget } from '../planner/targets/presets';
import { InputError } from '../shared/errors';
import { editableTarget, fixedIoReason, hasComputeUnits, targetForSettings } from './target';
import type { PlanSettings } from './types';

const MCU = { target: 'mcu', strategy: undefined } as const;

describe('target edits', () => {
  it('returns the preset itself without edits', () => {
    expect(targetForSettings(MCU)).toBe(presetTarget('mcu'));
    expect(targetForSettings({ ...MCU, edits: { regions: { sram: {} } } })).toBe(presetTarget('mcu'));
  });

  it('changes region limits and alignment, and removes a limit', () => {
    const t = targetForSettings({ ...MCU, edits: { regions: { sram: { sizeLimit: 1024, alignment: 64 }, 'ext-ram': { sizeLimit: 'none' } } } });
    expect(t.regions).toEqual([
      { name: 'sram', sizeLimit: 1024, alignment: 64, fast: true },
      { name: 'ext-ram', alignment: 16, fast: false },
    ]);
    expect(editableTarget('mcu', { regions: { 'ext-ram': { sizeLimit: 'none' } } }).regions[1]).toMatchObject({ name: 'ext-ram', sizeLimit: undefined });
  });

  it('switches fusion and compute units off and sets the dw-pw cache', () => {
    const phone = targetForSettings({ target: 'phone', strategy: undefined, edits: { fusion: false, computeUnits: false, dwPwCacheBytes: 4096 } });
    expect(phone.fusion).toMatchObject({ enabled: false, dwPwCacheBytes: 4096 });
    expect(phone.computeUnits).toEqual([]);
    expect(editableTarget('phone', { fusion: false })).toMatchObject({ fusion: false, dwPwCacheBytes: 256 * 1024, computeUnits: ['npu', 'cpu'] });
    expect(editableTarget('cpu')).toMatchObject({ fusion: undefined, dwPwCacheBytes: undefined });
    expect(hasComputeUnits('phone')).toBe(true);
    expect(hasComputeUnits('cpu')).toBe(false);
  });

  it('sets the execution order and the fusion SRAM as plan --order and --sram do', () => {
    const t = targetForSettings({ target: 'accelerator', strategy: undefined, edits: { order: 'depth-first', sramBytes: 8 << 20 } });
    const cli = applyTargetChange(presetTarget('accelerator'), { order: 'depth-first', sramBytes: 8 << 20 });
    expect(t).toEqual(cli);
    expect(t.planning.order).toBe('depth-first');
    expect(t.fusion?.sramBytes).toBe(8 << 20);
    expect(editableTarget('accelerator', { order: 'memory-aware' })).toMatchObject({ order: 'memory-aware', sramBytes: 4 << 20 });
    expect(editableTarget('cpu')).toMatchObject({ order: 'file', sramBytes: undefined });
  });

  it('gives the profile plan gives with the same fields as CLI options, on every preset', () => {
    const cases = [
      { target: 'phone', edits: { fusion: false, computeUnits: false, dwPwCacheBytes: 4096 }, change: { fusion: false, computeUnits: 'off', dwPwCacheBytes: 4096 } },
      { target: 'mcu', edits: { scratchPlacement: 'with-activations', order: 'memory-aware' }, change: { scratchPlacement: 'with-activations', order: 'memory-aware' } },
      { target: 'accelerator', edits: { fusion: true, sramBytes: 1 << 20 }, change: { fusion: true, sramBytes: 1 << 20 } },
      { target: 'cpu', edits: { computeUnits: false }, change: { computeUnits: 'off' } },
      { target: 'mcu', edits: { spill: 'off' }, change: { spill: 'off' } },
      { target: 'mcu', edits: { weights: { region: 'ext-ram', copied: true }, io: 'application' }, change: { weights: { region: 'ext-ram', copied: true }, io: 'application' } },
    ] as const;
    for (const { target, edits, change } of cases) expect(targetForSettings({ target, strategy: undefined, edits })).toEqual(applyTargetChange(presetTarget(target), change));
    expect(targetForSettings({ ...MCU, edits: { scratchPlacement: 'with-activations' } }).scratch.placement).toBe('with-activations');
  });

  it('offers the spill switch only where the memory map has more than one region', () => {
    expect(editableTarget('mcu').spill).toBe('on');
    expect(editableTarget('mcu', { spill: 'off' }).spill).toBe('off');
    for (const name of ['cpu', 'accelerator', 'phone']) expect(editableTarget(name).spill).toBeUndefined();
    expect(targetForSettings({ ...MCU, edits: { spill: 'off' } }).planning.spill).toBe('off');
  });

  it('offers flash, every region and a copy to every region for the weights, and both owners of graph I/O', () => {
    expect(editableTarget('mcu')).toMatchObject({ weights: 'flash', io: 'arena', weightsChoices: ['flash', 'sram', 'ext-ram', 'copy-to:sram', 'copy-to:ext-ram'] });
    // TensorFlow Lite Micro reads weights from the model's buffer, never from its tensor arena: flash is the only place offered
    expect(editableTarget('tflm').weightsChoices).toEqual(['flash']);
    // a host has no flash: the choice of no region says where weights then are (the cpu preset offered 'flash')
    expect(editableTarget('cpu').weightsLabels).toEqual({ flash: 'runtime' });
    expect(editableTarget('mcu').weightsLabels).toEqual({});
    expect(editableTarget('mcu', { weights: { region: 'sram', copied: true }, io: 'application' })).toMatchObject({ weights: 'copy-to:sram', io: 'application' });
    expect(targetForSettings({ ...MCU, edits: { weights: { region: 'sram', copied: false } } }).planning.weights).toEqual({ region: 'sram', copied: false });
    expect(() => targetForSettings({ ...MCU, edits: { weights: { region: 'rom', copied: false } } })).toThrow('target mcu has no region "rom" for the weights (regions: sram, ext-ram; or flash)');
    expect(() => targetForSettings({ ...MCU, edits: { io: 'heap' as never } })).toThrow('graph I/O must be one of arena, application, got "heap"');
  });

  it('says why graph I/O is fixed in the arena on tflm for a .tflite, and only there', () => {
    expect(fixedIoReason('tflm', 'tflite')).toBe("TensorFlow Lite Micro allocates the model's inputs and outputs in its tensor arena whatever this says, so graph I/O stays there on this target (another target lets the application own it)");
    // an ONNX model on tflm is planned as on any target, so io=application applies; so it does on every other preset
    expect(fixedIoReason('tflm', 'onnx')).toBeUndefined();
    expect(fixedIoReason('tflm', undefined)).toBeUndefined();
    for (const name of ['cpu', 'mcu', 'accelerator', 'phone']) expect(fixedIoReason(name, 'tflite')).toBeUndefined();
  });

  it('refuses a bad order or SRAM size naming the field', () => {
    const bad = (edits: object) => () => targetForSettings({ target: 'accelerator', strategy: undefined, edits });
    expect(bad({ order: 'random' })).toThrow('execution order must be one of file, depth-first, memory-aware, got "random"');
    expect(bad({ sramBytes: 0 })).toThrow('fusion SRAM bytes must be a whole number of bytes above 0, got 0');
    expect(() => targetForSettings({ ...MCU, edits: { sramBytes: 1024 } })).toThrow('target mcu has no fusion SRAM');
  });

  it('refuses bad values naming the field as the settings panel labels it', () => {
    const bad = (edits: object) => () => targetForSettings({ ...MCU, edits });
    expect(bad({ regions: { sram: { alignment: 48 } } })).toThrow('sram alignment must be a power of two, got 48');
    expect(bad({ regions: { sram: { sizeLimit: -5 } } })).toThrow('sram size limit must be a whole number of bytes above 0, got -5');
    expect(bad({ regions: { dram: { alignment: 8 } } })).toThrow('target mcu has no region "dram" (regions: sram, ext-ram)');
    expect(bad({ fusion: false })).toThrow('target mcu has no fusion settings to switch');
    expect(bad({ dwPwCacheBytes: 10 })).toThrow('target mcu has no dw-pw cache');
    expect(bad({ spill: 'maybe' })).toThrow('spill must be one of on, off, got "maybe"');
    expect(() => targetForSettings({ target: 'cpu', strategy: undefined, edits: { spill: 'off' } })).toThrow('target cpu has one activation region, no memory map to spill along');
    expect(() => targetForSettings({ target: 'phone', strategy: undefined, edits: { dwPwCacheBytes: 0.5 } })).toThrow('dw-pw cache bytes must be a whole number of bytes above 0, got 0.5');
  });

  it('names the edited field a refusal comes from, for the panel to show it under that field', () => {
    const refused = (settings: PlanSettings) => {
      try {
        targetForSettings(settings);
      } catch (error) {
        if (error instanceof InputError) return { message: error.message, field: error.field };
      }
      return undefined;
    };
    expect(refused({ ...MCU, edits: { regions: { sram: { alignment: 48 } } } })).toEqual({ message: 'sram alignment must be a power of two, got 48', field: 'regions.sram.alignment' });
    expect(refused({ ...MCU, edits: { regions: { 'ext-ram': { sizeLimit: -5 } } } })?.field).toBe('regions.ext-ram.sizeLimit');
    // a power of two past what the profile takes, refused by the profile parser rather than the edit check, naming the cap (not 'no power of two')
    expect(refused({ ...MCU, edits: { regions: { 'ext-ram': { alignment: 2 ** 31 } } } })).toEqual({ message: 'ext-ram alignment must be at most 1073741824 (2^30), the largest alignment heapscope takes, got 2147483648', field: 'regions.ext-ram.alignment' });
    expect(refused({ target: 'accelerator', strategy: undefined, edits: { sramBytes: 0 } })?.field).toBe('sramBytes');
    expect(refused({ target: 'phone', strategy: undefined, edits: { dwPwCacheBytes: 0.5 } })?.field).toBe('dwPwCacheBytes');
    // not one field's value: no field
    expect(refused({ ...MCU, edits: { regions: { dram: { alignment: 8 } } } })).toEqual({ message: 'target mcu has no region "dram" (regions: sram, ext-ram)', field: undefined });
    expect(refused({ ...MCU, edits: { dwPwCacheBytes: 10 } })?.field).toBeUndefined();
  });
});
