import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { PRESET_NAMES, PRESETS, presetTarget } from './presets';
import { activationRegionOf, scratchRegionOf } from './target';
import { parseTarget, parseTargetText } from './parse';
import { jsonErrorAt } from './json';

const minimal = { regions: [{ name: 'ram', alignment: 16 }] };

function badTarget(json: unknown): string {
  try {
    parseTarget(json);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('bad-target');
    return (error as InputError).message;
  }
  throw new Error('parseTarget accepted a bad profile');
}

describe('parseTarget', () => {
  it('fills the defaults of a minimal profile', () => {
    const t = parseTarget(minimal);
    expect(t).toEqual({
      name: 'custom',
      description: '',
      regions: [{ name: 'ram', alignment: 16, fast: false }],
      computeUnits: [],
      scratch: { rules: [], placement: 'free-areas', side: 'bottom', grow: 'top', retries: false, criterion: 'smallest-heap' },
      planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'ram', opKinds: {} }, // the strategy of every preset
    });
  });

  it.each([
    [{ regions: [{ name: 'a', alignment: 16 }, { name: 'b', alignment: 48 }] }, 'regions[1].alignment must be a power of two, got 48'],
    [{ regions: [] }, 'regions must list at least one memory region, got []'],
    [{}, 'regions must be an array, got nothing'],
    [[], 'the target profile must be an object, got []'],
    [{ regions: [{ name: 'a' }, { name: 'a' }] }, 'regions[1].name must be unique (regions[0] has it too), got "a"'],
    // plan --csv writes out.SRAM.csv and out.sram.csv: one file on a case-insensitive disk, the second overwriting the first
    [{ regions: [{ name: 'SRAM' }, { name: 'dram' }, { name: 'sram' }] }, 'regions[2].name must differ from regions[0].name "SRAM" other than by case (each region\'s --csv file is named by it), got "sram"'],
    [{ regions: [{ name: 'a', sizeLimit: -1 }] }, 'regions[0].sizeLimit must be at least 1, got -1'],
    [{ regions: [{ name: 'a', fast: 'yes' }] }, 'regions[0].fast must be true or false, got "yes"'],
    [{ regions: [{ name: 'a', align: 4 }] }, 'regions[0].align is not a known field (expected one of name, sizeLimit, alignment, fast)'],
    [{ ...minimal, planning: { strategy: 'fastest' } }, 'planning.strategy must be one of'],
    [{ ...minimal, planning: { order: 'random' } }, 'planning.order must be one of "file", "depth-first", "memory-aware", got "random"'],
    [{ ...minimal, planning: { activationRegion: 'sram' } }, 'planning.activationRegion must name a region (ram), got "sram"'],
    [{ ...minimal, planning: { opKinds: { Relu: 'fused' } } }, 'planning.opKinds.Relu must be one of "computing", "removable", "merging", "in-place", got "fused"'],
    [{ ...minimal, scratch: { rules: [{ opType: 'Conv' }] } }, 'scratch.rules[0] must give exactly one of "bytes" and "formula"'],
    [{ ...minimal, scratch: { rules: [{ opType: 'Conv', formula: 'in0[1] ** 2' }] } }, 'scratch.rules[0].formula: unexpected "*" at character 9 in "in0[1] ** 2"'],
    [{ ...minimal, scratch: { rules: [{ opType: 'Conv', bytes: 1.5 }] } }, 'scratch.rules[0].bytes must be an integer, got 1.5'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['Conv', 3] }] }, 'computeUnits[0].opTypes[1] must be an op type name, got 3'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: [] }] }, "computeUnits[0].opTypes must list at least one op type ('*' for every op), got []"],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'] }, { name: 'npu', opTypes: ['*'] }] }, 'computeUnits[1].name must be unique (computeUnits[0] has it too), got "npu"'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], dtype: { activations: 'int7' } }] }, 'computeUnits[0].dtype.activations must be "model" or a data type name (float32, uint8, int8,'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], dtype: { activations: 'int7' } }] }, '), got "int7"'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], dtype: { fakeQuantization: 'on' } }] }, 'computeUnits[0].dtype.fakeQuantization must be true or false, got "on"'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], alignment: 48 }] }, 'computeUnits[0].alignment must be a power of two, got 48'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], constraints: { maxConvKernel: 0 } }] }, 'computeUnits[0].constraints.maxConvKernel must be at least 1, got 0'],
    [{ ...minimal, computeUnits: [{ name: 'npu', opTypes: ['*'], constraints: { maxKernel: 7 } }] }, 'computeUnits[0].constraints.maxKernel is not a known field (expected one of maxConvKernel)'],
    [{ ...minimal, fusion: { sramBytes: 1, nramBytes: 1, wramBytes: 1, rules: { split: 'random' } } }, 'fusion.rules.split must be one of'],
  ])('rejects %j naming the field and the value', (json, message) => {
    expect(badTarget(json)).toContain(message);
  });

  it('reads a full profile with every section', () => {
    const t = parseTarget({
      name: 'board',
      regions: [
        { name: 'sram', alignment: 8, fast: true, sizeLimit: 1024 },
        { name: 'dram', alignment: 64 },
      ],
      computeUnits: [{ name: 'npu', opTypes: ['Conv'], dtype: { activations: 'int8', fakeQuantization: true }, alignment: 32 }],
      fusion: { sramBytes: 1024, nramBytes: 256, wramBytes: 512, coresPerCluster: 4, dwPwCacheBytes: 128 },
      scratch: { rules: [{ opType: 'Conv', name: 'im2col', formula: 'bytes(in0)', latencyCritical: true, overlay: true }], retries: true, criterion: 'most-fast' },
      planning: { activationRegion: 'dram', order: 'memory-aware', graphIo: 'as-used', opKinds: { Relu: 'computing' } },
    });
    expect(activationRegionOf(t).name).toBe('dram');
    expect(scratchRegionOf(t, true).name).toBe('sram');
    expect(scratchRegionOf(t, false).name).toBe('dram');
    expect(t.fusion?.rules.redundancyPercent).toBe(100);
    expect(t.scratch.rules[0]).toEqual({ opType: 'Conv', name: 'im2col', formula: 'bytes(in0)', variable: false, latencyCritical: true, overlay: true });
  });
});

describe('parseTargetText', () => {
  it('names the file and the line and column of a JSON error', () => {
    const text = '{\n  "regions": [\n    { "name": "ram", }\n  ]\n}';
    expect(() => parseTargetText(text, 'board.json')).toThrow(
      'board.json is not valid JSON: a double-quoted property name was expected, found "}" at line 3, column 22 (position 38)',
    );
  });

  it('names the file in a validation error', () => {
    expect(() => parseTargetText('{"regions": [{"name": "a", "alignment": 3}]}', 'a.json')).toThrow('a.json: regions[0].alignment must be a power of two, got 3');
    // 2^40 and 2^60 are powers of two: refused for the cap, named, not as 'no power of two' (nor 2^60 as 'no integer')
    expect(() => parseTargetText('{"regions": [{"name": "a", "alignment": 1099511627776}]}', 'a.json')).toThrow('a.json: regions[0].alignment must be at most 1073741824 (2^30), the largest alignment heapscope takes, got 1099511627776');
    expect(() => parseTargetText('{"regions": [{"name": "a", "alignment": 1152921504606846976}]}', 'a.json')).toThrow('a.json: regions[0].alignment must be at most 1073741824 (2^30)');
    expect(() => parseTargetText('{"regions": [{"name": "a", "alignment": 1073741824}]}', 'a.json')).not.toThrow();
    expect(() => parseTargetText('{"regions": [{"name": "a", "alignment": 1099511627777}]}', 'a.json')).toThrow('a.json: regions[0].alignment must be a power of two, got 1099511627777');
  });
});

describe('jsonErrorAt', () => {
  it.each([
    ['{"a": [1, 2,]}', 12, 'a value was expected, found "]"'],
    ['{"a": 1} x', 9, 'text after the end of the document, found "x"'],
    ['{"a": "b', 8, 'a string is not closed, found the end of the text'],
    ['{"a": -}', 6, 'a bad number, found "-"'],
    ['{"a": "\\q"}', 7, 'a bad escape in a string, found "\\"'],
    ['{"a" 1}', 5, '":" was expected, found "1"'],
    ['[tru]', 1, 'a value was expected, found "t"'],
  ])('finds the first error of %s', (text, position, reason) => {
    expect(jsonErrorAt(text)).toMatchObject({ position, reason });
  });

  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', ' [1, -2.5e3, "x\\u00e9", true, false, null, {"k": []}] ', '"s"', '0']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonErrorAt(text)).toBeUndefined();
    }
  });
});

describe('presets', () => {
  it('ship under the names DESIGN.md fixes', () => {
    expect(PRESET_NAMES).toEqual(['cpu', 'mcu', 'accelerator', 'phone', 'phone-dsp', 'tflm']);
    expect(() => presetTarget('gpu')).toThrow('unknown target preset "gpu" (presets: cpu, mcu, accelerator, phone, phone-dsp, tflm)');
  });

  it('describe the machines they are named for', () => {
    const cpu = presetTarget('cpu');
    expect(cpu.regions.map((r) => r.alignment)).toEqual([64]);
    expect(cpu.fusion).toBeUndefined();
    const mcu = presetTarget('mcu');
    expect(mcu.regions.map((r) => [r.name, r.fast])).toEqual([
      ['sram', true],
      ['ext-ram', false],
    ]);
    expect(mcu.scratch.rules.find((r) => r.opType === 'Conv' && r.name === 'im2col')?.latencyCritical).toBe(true);
    const acc = presetTarget('accelerator');
    expect(acc.regions.map((r) => r.name)).toEqual(['dram', 'sram', 'nram', 'wram']);
    expect(acc.fusion?.coresPerCluster).toBeGreaterThan(1);
    const phone = presetTarget('phone');
    expect(phone.computeUnits.find((u) => u.name === 'npu')?.dtype.activations).toBe('int8');
    expect(phone.fusion?.dwPwCacheBytes).toBeGreaterThan(0);
  });

  it('read back unchanged through JSON, as a file would carry them', () => {
    for (const preset of PRESETS.values()) expect(parseTarget(JSON.parse(JSON.stringify(preset)))).toEqual(preset);
  });
});

describe('profiles are bounded before they are read', () => {
  const base = { regions: [{ name: 'sram', alignment: 16 }] };
  const rule = (opType: string, i: number) => ({ opType, name: `s${i}`, bytes: 16 });

  it('refuses more than 256 scratch rules, and more than 16 for one op type', () => {
    const many = { ...base, scratch: { rules: Array.from({ length: 10_000 }, (_, i) => rule(`Op${i}`, i)) } };
    expect(() => parseTarget(many)).toThrow('scratch.rules may list at most 256 scratch rules, got "10000 of them"');
    const oneOp = { ...base, scratch: { rules: Array.from({ length: 17 }, (_, i) => rule('Conv', i)) } };
    expect(() => parseTarget(oneOp)).toThrow('scratch.rules may give an op type at most 16 scratch buffers, got "17 for Conv"');
    expect(parseTarget({ ...base, scratch: { rules: Array.from({ length: 16 }, (_, i) => rule('Conv', i)) } }).scratch.rules).toHaveLength(16);
  });

  it('refuses more than 64 regions or compute units', () => {
    const regions = Array.from({ length: 65 }, (_, i) => ({ name: `r${i}` }));
    expect(() => parseTarget({ regions })).toThrow('regions may list at most 64 regions');
  });
});

