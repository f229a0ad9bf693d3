import { describe, expect, it } from 'vitest';
import { fullViewHref, parseUrlParams, shareSearch, shareableModelUrl } from './url-params';
import { NO_EXTRAS } from './url-settings';
import { BYTE_UNITS_TEXT } from '../shared/byte-size';

describe('URL parameters', () => {
  it('reads the model URL, dims and embed flag', () => {
    const p = parseUrlParams('?model=https%3A%2F%2Fx.example%2Fm.onnx&dim.batch=8&dim.sequence_length=128&embed=1');
    expect(p).toEqual({
      ...NO_EXTRAS,
      model: 'https://x.example/m.onnx',
      dims: { batch: 8, sequence_length: 128 },
      embed: true,
      strategy: undefined,
      target: undefined,
      ignored: [],
      typed: { model: 'https://x.example/m.onnx', 'dim.batch': '8', 'dim.sequence_length': '128', embed: '1' },
    });
  });

  it('keeps dim names with dots and colons, and sets aside values that are not whole numbers', () => {
    const p = parseUrlParams('?dim.input_ids:0=2&dim.a.b=3&dim.x=-1&dim.y=1.5&dim.z=abc&dim.=4');
    expect(p.dims).toEqual({ 'input_ids:0': 2, 'a.b': 3 });
    expect(p.ignored).toEqual([
      'dim.x=-1: a dim is a length, a whole number from 0 to 2147483647, not negative',
      'dim.y=1.5: a dim is a whole number from 0 to 2147483647',
      'dim.z=abc: a dim is a whole number from 0 to 2147483647',
      'dim.=4: a dim parameter is dim.NAME=VALUE, and this one names no dim',
    ]);
    expect(parseUrlParams('?dim.past_seq_len=-3&dim.big=2147483648').ignored).toEqual([
      'dim.past_seq_len=-3: a dim is a length, a whole number from 0 to 2147483647, not negative',
      'dim.big=2147483648: a dim is at most 2147483647',
    ]);
  });

  it('names an empty model parameter, which opens the sample (or asks for the local file) instead', () => {
    expect(parseUrlParams('?model=')).toMatchObject({ model: undefined, ignored: ["model=: the link's model parameter is empty, so the sample opens instead"] });
    expect(parseUrlParams('?model=%20&file=a.onnx')).toMatchObject({ model: undefined, ignored: ["model= : the link's model parameter is empty, so the local file a.onnx is asked for instead"] });
    expect(parseUrlParams('').ignored).toEqual([]);
  });

  it('takes the last of a parameter given twice, as the command-line tool does, and names both values', () => {
    // ?target=mcu&target=cpu planned for mcu without a word; `plan --target mcu --target cpu` plans for cpu with a note
    const p = parseUrlParams('?target=mcu&target=cpu&dim.batch=1&dim.batch=4&strategy=best&strategy=best&utm=a&utm=b');
    expect(p.target).toBe('cpu');
    expect(p.dims).toEqual({ batch: 4 });
    expect(p.strategy).toBe('best');
    expect(p.typed.target).toBe('cpu');
    expect(p.ignored).toEqual(['target given twice ("mcu", then "cpu"): the last applies', 'dim.batch given twice ("1", then "4"): the last applies']);
    expect(parseUrlParams('?region.sram.limit=1&region.sram.limit=2&region.sram.limit=3').ignored).toEqual(['region.sram.limit given 3 times ("1", "2", then "3"): the last applies']);
    // a bad first value is not reported as left out when the last one applies
    expect(parseUrlParams('?dim.batch=x&dim.batch=2')).toMatchObject({ dims: { batch: 2 }, ignored: ['dim.batch given twice ("x", then "2"): the last applies'] });
  });

  it('defaults to the sample with no dims', () => {
    expect(parseUrlParams('')).toMatchObject({ model: undefined, dims: {}, embed: false });
    expect(parseUrlParams('?model=&embed=0')).toMatchObject({ model: undefined, embed: false });
  });
});

describe('share links', () => {
  const view = { ...NO_EXTRAS, model: 'https://x.example/m.onnx', dims: { seq: 128, batch: 4 }, strategy: 'tflm', target: 'mcu', embed: false };

  it('writes every setting so that parsing the link gives the same view back', () => {
    const search = shareSearch(view);
    expect(search).toBe('?model=https%3A%2F%2Fx.example%2Fm.onnx&target=mcu&strategy=tflm&dim.batch=4&dim.seq=128');
    expect(parseUrlParams(search)).toEqual({ ...view, ignored: [], typed: Object.fromEntries(new URLSearchParams(search)) });
  });

  it('drops stale settings of the current URL but keeps parameters it does not own', () => {
    const search = shareSearch(
      { ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: true },
      '?model=old.onnx&dim.batch=9&strategy=naive&shape.x=1x2&fusion=0&select=step:3&utm=docs',
    );
    expect(search).toBe('?utm=docs&embed=1');
  });

  it('keeps the panes of the current URL that the page knows, in their order, and drops the rest it said it left out', () => {
    const empty = { ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: true };
    expect(shareSearch(empty, '?panes=bogus,Heap,details,heap')).toBe('?panes=heap%2Cexplain&embed=1');
    expect(parseUrlParams('?panes=bogus,Heap,details').ignored).toEqual(['panes=bogus: the panes are graph, heap, chart, explain, growth']);
    expect(shareSearch(empty, '?panes=bogus&utm=docs')).toBe('?utm=docs&embed=1');
  });

  it('is empty for the sample with default settings', () => {
    expect(shareSearch({ ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: false })).toBe('');
  });

  it('round-trips target fields, switches, shapes, input values, the selection and a local file name', () => {
    const full = {
      ...view,
      model: undefined,
      file: 'det model.onnx',
      shapes: { 'mystery/out:0': [1, 64, 32, 32], scalar: [] },
      inputValues: { sr: [16000], mask: [1, 0, 0.5] },
      edits: { regions: { sram: { sizeLimit: 1048576, alignment: 32 }, 'ext.ram': { sizeLimit: 'none' as const } }, fusion: false, computeUnits: true, dwPwCacheBytes: 4096, sramBytes: 8388608, order: 'depth-first' as const, scratchPlacement: 'with-activations' as const, spill: 'off' as const, weights: { region: 'sram', copied: true }, io: 'application' as const },
      budgetMs: 5000,
      selection: { kind: 'node' as const, node: '/stem/conv/Conv' },
    };
    const search = shareSearch(full);
    expect(search).toContain('budget=5000');
    expect(search).toContain('region.sram.limit=1048576');
    expect(search).toContain('fusion=0');
    expect(search).toContain('sram=8388608');
    expect(search).toContain('order=depth-first');
    expect(search).toContain('scratch=with-activations');
    expect(search).toContain('spill=off');
    expect(search).toContain('weights=copy-to%3Asram');
    expect(search).toContain('io=application');
    expect(parseUrlParams(search)).toEqual({ ...full, ignored: [], typed: Object.fromEntries(new URLSearchParams(search)) });
    for (const selection of [{ kind: 'buffer', buffer: 12 }, { kind: 'step', step: 0 }] as const) {
      expect(parseUrlParams(shareSearch({ ...full, selection })).selection).toEqual(selection);
    }
  });

  it('reads a bool input value as the value fields take it: true or false, as 1 or 0', () => {
    expect(parseUrlParams('?input.cond=true&input.mask=False,1').inputValues).toEqual({ cond: [1], mask: [0, 1] });
  });

  it('ignores extras that do not parse, naming them', () => {
    const p = parseUrlParams('?shape.x=1xtwo&input.sr=fast&fusion=maybe&cache=-1&sram=big&order=random&scratch=anywhere&spill=0&weights=copy-to:&io=app&region.sram.limit=lots&region.size=4&select=edge:3');
    expect(p.shapes).toEqual({});
    expect(p.inputValues).toEqual({});
    expect(p.edits).toBeUndefined();
    expect(p.selection).toBeUndefined();
    expect(p.ignored).toEqual([
      'shape.x=1xtwo: a shape is whole numbers joined by x, as 1x3x224x224',
      'input.sr=fast: an input value is numbers (or true, false) joined by commas, as 16000 or 1,0,1',
      'fusion=maybe: fusion is 0 (off) or 1 (on)',
      `cache=-1: dw-pw cache bytes must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "-1"`,
      `sram=big: fusion SRAM bytes must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "big"`,
      expect.stringMatching(/^order=random: the order is file, .* or /),
      expect.stringMatching(/^scratch=anywhere: the scratch placement is free-areas or with-activations$/),
      'spill=0: spill is on or off',
      'weights=copy-to:: weights is flash, a region name, or copy-to:REGION',
      'io=app: io is arena or application',
      `region.sram.limit=lots: sram size limit must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "lots"; none: no limit`,
      'region.size=4: a region field is region.NAME.limit or region.NAME.align',
      'select=edge:3: a selection is node:NAME, buffer:ID or step:N',
    ]);
    expect(parseUrlParams('?shape.=1x2&input.=3').ignored).toEqual([
      'shape.=1x2: a shape parameter is shape.TENSOR=DIMS, and this one names no tensor',
      'input.=3: an input parameter is input.NAME=VALUES, and this one names no input',
    ]);
  });

  it('round-trips the graph groups: a starting point and each group that differs from it, names with any character', () => {
    const groups = { from: 'closed' as const, open: ['sc:/encoder', 'sc:/a&b=c,d'], closed: ['fu:tfu 0'] };
    const search = shareSearch({ ...view, groups });
    expect(search).toContain('groups=closed');
    expect(search).toContain('group.fu%3Atfu+0=closed');
    const back = parseUrlParams(search);
    expect(back.groups).toEqual({ from: 'closed', open: ['sc:/a&b=c,d', 'sc:/encoder'], closed: ['fu:tfu 0'] });
    expect(back.ignored).toEqual([]);
    // The first view with no change is no parameter at all.
    expect(shareSearch({ ...view, groups: { from: 'first', open: [], closed: [] } })).toBe(shareSearch(view));
    expect(parseUrlParams('?group.sc%3A%2Fx=open').groups).toEqual({ from: 'first', open: ['sc:/x'], closed: [] });
  });

  it('ignores group states that are neither open nor closed, naming them', () => {
    const p = parseUrlParams('?groups=first&group.sc%3A%2Fx=shut&group.=open');
    expect(p.groups).toBeUndefined();
    expect(p.ignored).toEqual([
      'groups=first: groups is open or closed',
      'group.sc:/x=shut: a group is open or closed',
      'group.=open: a group parameter is group.ID=open|closed, and this one names no group',
    ]);
  });

  it('reads a search budget in whole milliseconds and names a bad one, as the other extras', () => {
    expect(parseUrlParams('?budget=30000')).toMatchObject({ budgetMs: 30000, ignored: [] });
    for (const bad of ['0', '-5', '1.5', 'soon', '', '99999999999999999999']) {
      expect(parseUrlParams(`?budget=${bad}`)).toMatchObject({ budgetMs: undefined, ignored: [`budget=${bad}: a search budget is a whole number of milliseconds from 1 up`] });
    }
    expect(shareSearch({ ...view, budgetMs: undefined })).not.toContain('budget');
    // A link rewritten from the page keeps no stale budget of the address it replaces.
    expect(shareSearch({ ...view, budgetMs: undefined }, '?budget=1000&utm=x')).toContain('utm=x');
    expect(shareSearch({ ...view, budgetMs: undefined }, '?budget=1000')).not.toContain('budget');
  });

  it('links same-origin models by path and others by full URL; never blob or data URLs', () => {
    const page = 'http://127.0.0.1:4173/app/?embed=1';
    expect(shareableModelUrl('http://127.0.0.1:4173/models/a.onnx?v=2', page)).toBe('/models/a.onnx?v=2');
    expect(shareableModelUrl('https://cdn.example/b.onnx', page)).toBe('https://cdn.example/b.onnx');
    expect(shareableModelUrl('blob:http://127.0.0.1:4173/1234', page)).toBeUndefined();
    expect(shareableModelUrl(undefined, page)).toBeUndefined();
  });
});

describe('a comparison in a link', () => {
  const view = { ...NO_EXTRAS, model: '/m.onnx', dims: { batch: 1 }, strategy: undefined, target: 'accelerator', embed: false };
  const sideB = {
    dims: { batch: 4, seq: 512 },
    shapes: { image: [1, 3, 96, 96] },
    inputValues: { sr: [8000] },
    settings: { target: 'mcu', strategy: 'tflm', edits: { fusion: false, regions: { sram: { sizeLimit: 65536 } }, scratchPlacement: 'with-activations' as const } },
  };

  it("writes B's whole settings under b. after compare=1, and reads them back", () => {
    const search = shareSearch({ ...view, compare: sideB });
    expect(search).toBe(
      '?model=%2Fm.onnx&target=accelerator&dim.batch=1&compare=1&b.target=mcu&b.strategy=tflm&b.dim.batch=4&b.dim.seq=512&b.shape.image=1x3x96x96&b.input.sr=8000&b.region.sram.limit=65536&b.fusion=0&b.scratch=with-activations',
    );
    expect(parseUrlParams(search)).toEqual({ ...view, compare: sideB, ignored: [], typed: Object.fromEntries(new URLSearchParams(search)) });
  });

  it("gives B the default target and strategy when the link leaves them out, not A's", () => {
    expect(parseUrlParams('?target=mcu&strategy=naive&compare=1&b.dim.batch=2').compare).toEqual({ dims: { batch: 2 }, shapes: {}, inputValues: {}, settings: { target: 'cpu', strategy: undefined } });
  });

  it('drops a stale comparison of the current URL when none is open', () => {
    expect(shareSearch(view, '?compare=1&b.dim.batch=4&b.target=mcu&utm=x')).toBe('?utm=x&model=%2Fm.onnx&target=accelerator&dim.batch=1');
  });

  it('ignores b. parameters that do not parse, that name no setting of B, or that come without compare=1, naming them', () => {
    const p = parseUrlParams('?compare=1&b.dim.batch=-4&b.fusion=maybe&b.select=step:3&b.file=x.onnx&b.model=y.onnx&b.shape.x=1xtwo&b.dim.seq=8');
    expect(p.compare).toEqual({ dims: { seq: 8 }, shapes: {}, inputValues: {}, settings: { target: 'cpu', strategy: undefined } });
    const notOfB = ": B is the model on screen planned again, and takes plan settings only (target, strategy, dim., shape., input., region. and the target's fields)";
    expect(p.ignored).toEqual([
      `b.select=step:3${notOfB}`,
      `b.file=x.onnx${notOfB}`,
      `b.model=y.onnx${notOfB}`,
      'b.dim.batch=-4: a dim is a length, a whole number from 0 to 2147483647, not negative',
      'b.fusion=maybe: fusion is 0 (off) or 1 (on)',
      'b.shape.x=1xtwo: a shape is whole numbers joined by x, as 1x3x224x224',
    ]);
    const off = parseUrlParams('?compare=yes&b.dim.batch=4');
    expect(off.compare).toBeUndefined();
    expect(off.ignored).toEqual(['compare=yes: compare is 1, to open a comparison', 'b.dim.batch=4: b. parameters apply only with compare=1']);
    expect(parseUrlParams('?b.strategy=tflm').ignored).toEqual(['b.strategy=tflm: b. parameters apply only with compare=1']);
  });

  it("keeps names from the model as plain keys of B's bindings", () => {
    const b = parseUrlParams('?compare=1&b.dim.constructor=3&b.dim.__proto__=5&b.shape.toString=1x2&b.input.hasOwnProperty=1').compare!;
    expect(Object.keys(b.dims).sort()).toEqual(['__proto__', 'constructor']);
    expect(b.dims['__proto__']).toBe(5);
    expect(Object.hasOwn(b.shapes, 'toString') && Object.hasOwn(b.inputValues, 'hasOwnProperty')).toBe(true);
    expect(Object.getPrototypeOf(b.dims)).toBeNull();
    expect(parseUrlParams(shareSearch({ ...view, compare: b })).compare).toEqual(b);
  });
});

describe('the link out of an embedded view', () => {
  it('is the same view without embed=1', () => {
    expect(fullViewHref('https://x.example/app/?embed=1&model=m.onnx&dim.batch=2#top')).toBe('https://x.example/app/?model=m.onnx&dim.batch=2#top');
  });
});

describe('a region field a link cannot apply', () => {
  it('is left out with the reason, as every other field the target refuses', () => {
    expect(parseUrlParams('?region.sram.limit=-3&region.sram.align=abc&region.sram.size=4').ignored).toEqual([
      `region.sram.limit=-3: sram size limit must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "-3"; none: no limit`,
      `region.sram.align=abc: sram alignment must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "abc"`,
      'region.sram.size=4: a region field is region.NAME.limit or region.NAME.align',
    ]);
  });
});

describe('size parameters of a link', () => {
  it('take the units the settings fields take, as the command line reads them', () => {
    const p = parseUrlParams('?target=mcu&region.sram.limit=100KiB&region.ext-ram.limit=8M&region.sram.align=1K&cache=4 KiB&sram=2MB');
    expect(p.ignored).toEqual([]);
    expect(p.edits).toEqual({ regions: { sram: { sizeLimit: 102_400, alignment: 1024 }, 'ext-ram': { sizeLimit: 8_388_608 } }, dwPwCacheBytes: 4096, sramBytes: 2_000_000 });
  });

  it('refuse what the fields refuse, in the fields\' words: 0, a part of a byte, past 2^53 − 1, an empty size', () => {
    expect(parseUrlParams('?region.sram.limit=0&sram=1.1K&cache=9999999999999999&region.sram.align=&region.ext.limit=').ignored).toEqual([
      'region.sram.limit=0: sram size limit must be a whole number of bytes above 0, got "0"; none: no limit',
      'sram=1.1K: fusion SRAM bytes must be a whole number of bytes above 0, got "1.1K"',
      'cache=9999999999999999: dw-pw cache bytes is too large: the largest byte size accepted is 9007199254740991 bytes (2^53 − 1), got "9999999999999999"',
      'region.sram.align=: sram alignment needs a value',
      'region.ext.limit=: ext size limit needs a value; none: no limit',
    ]);
  });

  it('that the page writes read back as the same bytes', () => {
    const edits = { regions: { sram: { sizeLimit: 102_400, alignment: 16 } }, dwPwCacheBytes: 4096, sramBytes: 2_000_000 };
    const search = shareSearch({ ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: 'mcu', embed: false, edits });
    expect(parseUrlParams(search)).toMatchObject({ edits, ignored: [] });
  });
});
