import { describe, expect, it } from 'vitest';
import { checkLinkSettings } from './link-settings';
import { parseUrlParams } from './url-params';

describe("a link's plan settings", () => {
  it('leave out each parameter the target refuses, named as the link wrote it, and keep the rest', () => {
    const p = parseUrlParams('?target=mcu&region.nope.limit=5&region.sram.align=3&region.sram.limit=8192&weights=nowhere&spill=off');
    expect(p.ignored).toEqual([]);
    const checked = checkLinkSettings({ target: p.target, edits: p.edits });
    expect(checked.settings).toEqual({ target: 'mcu', edits: { regions: { sram: { sizeLimit: 8192 } }, spill: 'off' } });
    expect(checked.ignored).toEqual([
      expect.stringMatching(/^region\.nope\.limit=5: target mcu has no region "nope"/),
      'region.sram.align=3: sram alignment must be a power of two, got 3',
      expect.stringMatching(/^weights=nowhere: target mcu has no region "nowhere"/),
    ]);
  });

  it('leave out an unknown target or strategy, and check the fields against the default target then', () => {
    const checked = checkLinkSettings({ target: 'gpu', strategy: 'quantum', edits: { fusion: false } });
    expect(checked.settings).toEqual({});
    expect(checked.ignored).toEqual([
      expect.stringMatching(/^target=gpu: unknown target preset "gpu"/),
      expect.stringMatching(/^strategy=quantum: unknown strategy "quantum"/),
      'fusion=0: target cpu has no fusion settings to switch',
    ]);
  });

  it("name a comparison's B parameters with their prefix", () => {
    const b = parseUrlParams('?compare=1&b.target=mcu&b.region.nope.limit=4').compare!;
    const checked = checkLinkSettings(b.settings, 'b.');
    expect(checked.settings).toEqual({ target: 'mcu' });
    expect(checked.ignored).toEqual([expect.stringMatching(/^b\.region\.nope\.limit=4: target mcu has no region "nope"/)]);
  });

  it('quote a left-out parameter as the link wrote it, not as the page would write the value it read', () => {
    const p = parseUrlParams('?target=mcu&region.nope.limit=1KiB&compare=1&b.target=mcu&b.region.nope.limit=4%20KiB');
    const a = checkLinkSettings({ target: p.target, edits: p.edits }, '', p.typed);
    expect(a.ignored).toEqual([expect.stringMatching(/^region\.nope\.limit=1KiB: target mcu has no region "nope"/)]);
    const b = checkLinkSettings(p.compare!.settings, 'b.', p.typed);
    expect(b.ignored).toEqual([expect.stringMatching(/^b\.region\.nope\.limit=4 KiB: target mcu has no region "nope"/)]);
  });
});
