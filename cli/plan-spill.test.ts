// `plan --spill on|off` and what the text says of the memory map: a model too
// large for SRAM alone fits once spilled to external RAM; too large for both,
// the DOES NOT FIT line is followed by the memory that would make it fit;
// --weights and --io place the weights and graph I/O, and the text says where.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectorModel } from '../src/model/testing/assumption-models';
import { presetTarget } from '../src/planner/targets/presets';
import { formatBytes } from '../src/shared/format';
import { planJson, run } from './testing/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'heapscope-spill-'));
const DETECTOR = join(dir, 'detector.onnx');
const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const ULTRAFACE = join(__dirname, '../../shared/models/ultraface_RFB-320.onnx');
const PERSON = join(__dirname, '../../shared/models/tflite/tflm_person_detect.tflite');
writeFileSync(DETECTOR, detectorModel());

interface Region {
  readonly name: string;
  readonly peak: number;
  readonly sizeLimit: number;
  readonly overBy: number;
  readonly spilled: number;
  readonly moved: { readonly written: number; readonly read: number };
}

describe('plan --spill', () => {
  it('off keeps every activation in SRAM; on spills and reports what moved where', () => {
    const off = planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320', '--spill', 'off'], 3);
    const on = planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320', '--spill', 'on']);
    const sramOff = (off.regions as Region[]).find((r) => r.name === 'sram')!;
    expect(sramOff.overBy).toBeGreaterThan(0);
    expect(off.spill).toBeUndefined();
    expect(on.fits).toBe(true);
    const [sram, ext] = on.regions as Region[];
    expect(sram!.peak).toBeLessThanOrEqual(sram!.sizeLimit);
    expect(sram!.spilled).toBe(0);
    expect(ext!.spilled).toBeGreaterThan(0);
    expect(sram!.moved.written + sram!.moved.read).toBeGreaterThan(0);
    expect(on.buffers.some((b: { wanted?: string; region: string }) => b.wanted === 'sram' && b.region === 'ext-ram')).toBe(true);
    expect(on.explanation.spilled.length).toBeGreaterThan(0);
    // The reasons say sizes as the rest of the plan does (KiB, MiB), not as raw byte counts.
    for (const s of on.explanation.spilled as { reason: string }[]) {
      expect(s.reason).toMatch(/\d (KiB|MiB)\b/);
      expect(s.reason).not.toMatch(/\d{4,} B\b/);
    }
    expect(on.lowerBound).toBe(off.lowerBound); // the bound of every split is the bound of the merged map
  });

  it('names the memory that would make a plan fit', () => {
    const big = run(['plan', DETECTOR, '--target', 'mcu', '--dim', 'image:2=2048', '--dim', 'image:3=2048']);
    expect(big.code).toBe(3);
    expect(big.out).toMatch(/DOES NOT FIT {2}region ext-ram needs/);
    expect(big.out).toMatch(/to fit {8}needs [\d.]+ [KMG]iB more ext-ram, or at least [\d.]+ [KMG]iB more sram/);
  });

  it.runIf(existsSync(GPT2))('a need just over its limit is written in bytes where both would round to the same figure, on both DOES NOT FIT lines', () => {
    const mcu = presetTarget('mcu');
    const small = join(dir, 'mcu-256k-1m.json');
    writeFileSync(small, JSON.stringify({ ...mcu, regions: mcu.regions.map((r) => ({ ...r, sizeLimit: r.name === 'sram' ? 256 * 1024 : 2 ** 20 })) }));
    const text = run(['plan', GPT2, '--target', small, '--dim', 'seq_len=1', '--dim', 'past_seq_len=683']);
    expect(text.code).toBe(3);
    // 1,050,112 B against 1,048,576 B: "needs 1.00 MiB … over its 1.00 MiB limit" read as exactly the limit
    expect(text.out).toContain('  DOES NOT FIT  region ext-ram needs 1,050,112 B, 1.50 KiB over its 1,048,576 B limit\n');
    expect(text.err).toContain('region ext-ram needs 1,050,112 bytes, 1,536 over its size limit of 1,048,576 bytes');
  });

  it("a spilled buffer is aligned and padded as its new region asks, not as the fast region does", () => {
    // SRAM aligned to 1 GiB: nothing fits it, everything spills to the 16-byte-aligned external RAM. Each buffer and
    // scratch request used to keep its 1 GiB padding there: 'ext-ram needs 4.00 GiB, 3.99 GiB over its 8.00 MiB limit'
    const mcu = presetTarget('mcu');
    const target = join(dir, 'mcu-sram-1g.json');
    writeFileSync(target, JSON.stringify({ ...mcu, name: 'mcu-sram-1g', regions: mcu.regions.map((r) => (r.name === 'sram' ? { ...r, alignment: 2 ** 30 } : r)) }));
    const plan = planJson([DETECTOR, '--target', target, '--dim', 'image:2=320', '--dim', 'image:3=320']);
    expect(plan.fits).toBe(true);
    // the bound of any split pads each buffer as the region of the least alignment does (it was 3.00 GiB, above the peak)
    expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
    expect(plan.lowerBound).toBe(planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320']).lowerBound);
    const ext = (plan.regions as Region[]).find((r) => r.name === 'ext-ram')!;
    expect(ext.peak).toBeLessThan(8 * 2 ** 20);
    const spilled = (plan.buffers as { region: string; size: number; bytes: number; offset: number }[]).filter((b) => b.region === 'ext-ram');
    expect(spilled.length).toBeGreaterThan(0);
    for (const b of spilled) {
      expect(b.size).toBeLessThan(b.bytes + 16 + 1);
      expect(b.offset % 16).toBe(0);
    }
    // the bytes spilled over the run are counted as the external RAM holds them
    expect(ext.spilled).toBeLessThan(spilled.reduce((sum, b) => sum + b.size, 0) + 1);
  });

  it('a memory map of three regions spills down every level, each region aligned as it asks', () => {
    // FastestDet: the first level's split is not proven within its work budget; the second level was then skipped, leaving
    // 'region mid needs 4.25 MiB, 3.25 MiB over its 1.00 MiB limit' with the external RAM free. With mid aligned to 4 KiB,
    // a concat part inside its output could not meet the alignment ('invalid placement problem'), and a group filled back
    // into mid kept the padding of the region it came from (an internal error on inception).
    const fastest = join(__dirname, '../../shared/models/FastestDet.onnx');
    if (!existsSync(fastest)) return void console.log('cli plan-spill: ../shared/models is absent; skipping the three-region case');
    const mcu = presetTarget('mcu');
    const [sram, ext] = mcu.regions;
    const three = {
      ...mcu,
      name: 'three',
      regions: [{ ...sram!, sizeLimit: 256 * 1024 }, { ...sram!, name: 'mid', alignment: 4096, sizeLimit: 2 ** 20 }, ext!],
      planning: { ...mcu.planning, memoryMap: ['sram', 'mid', 'ext-ram'] },
    };
    const target = join(dir, 'three.json');
    writeFileSync(target, JSON.stringify(three));
    const plan = planJson([fastest, '--target', target]);
    expect(plan.fits).toBe(true);
    const regions = plan.regions as Region[];
    for (const r of regions) expect(r.peak, r.name).toBeLessThanOrEqual(r.sizeLimit);
    expect(regions.find((r) => r.name === 'mid')!.peak).toBeGreaterThan(0);
    expect(regions.find((r) => r.name === 'ext-ram')!.spilled).toBeGreaterThan(0);
    const inMid = (plan.buffers as { region: string; offset: number; alias?: unknown }[]).filter((b) => b.region === 'mid' && b.alias === undefined);
    expect(inMid.length).toBeGreaterThan(0);
    for (const b of inMid) expect(b.offset % 4096).toBe(0);
  });

  it.skipIf(!existsSync(PERSON))("says which scratch a rule sends to the slow memory, where 'nothing spilled' hid it", () => {
    // person_detect on mcu: sram at 74.3 KiB of 512 KiB, 29 Conv workspaces in ext-ram, and the text said only
    // 'spill nothing spilled: no buffer planned in sram moved to a slower region'
    const plan = planJson([PERSON, '--target', 'mcu']);
    const byRule = (plan.buffers as { kind: string; region: string; moved: number; scratch?: { latencyCritical?: boolean } }[]).filter((b) => b.kind === 'scratch' && b.region === 'ext-ram');
    expect(byRule.length).toBeGreaterThan(0);
    for (const b of byRule) expect(b.scratch?.latencyCritical).toBe(false);
    expect(plan.spill.spilledBuffers).toBe(0);
    const moved = formatBytes(byRule.reduce((sum, b) => sum + b.moved, 0));
    const line = run(['plan', PERSON, '--target', 'mcu']).out.split('\n').find((l) => l.startsWith('  spill'))!;
    expect(line).toBe(
      `  spill         nothing spilled: no buffer planned in sram moved to a slower region; ${byRule.length} scratch buffers are in ext-ram by the target's scratch rules, not spilled: their rules are not latency-critical, so M4 places them in the slow memory and leaves sram to activations and latency-critical scratch; they move ${moved} there per inference (written and read)`,
    );
  });

  it.skipIf(!existsSync(PERSON))('counts the bytes scratch moves in slow memory in the DRAM traffic', () => {
    // person_detect on mcu: no tensor in ext-ram, 29 Conv workspaces there, and 'DRAM traffic 0 B'
    const plan = planJson([PERSON, '--target', 'mcu']);
    const moved = (plan.buffers as { kind: string; region: string; moved: number }[]).filter((b) => b.region === 'ext-ram').reduce((sum, b) => sum + b.moved, 0);
    expect(moved).toBeGreaterThan(0);
    expect(plan.traffic).toEqual({ before: moved, after: moved });
    expect(run(['plan', PERSON, '--target', 'mcu']).out).toContain(`  DRAM traffic  ${formatBytes(moved)}\n`);
  });

  it('refuses a value other than on or off', () => {
    const bad = run(['plan', DETECTOR, '--target', 'mcu', '--spill', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--spill must be one of on, off, got "maybe"');
  });
});

describe('plan --weights and --io', () => {
  const args = [DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320'];

  it('count weights copied to a region against it, and application-owned I/O outside the arena', () => {
    const plain = planJson(args);
    const plan = planJson([...args, '--weights', 'copy-to:ext-ram', '--io', 'application']);
    const ext = (plan.regions as (Region & { weights: number; used: number; io: number })[]).find((r) => r.name === 'ext-ram')!;
    expect(plan.storage.weights).toEqual({ in: 'ext-ram', copied: true, bytes: plain.weights.bytes, home: 'flash' });
    expect(ext.weights).toBe(Math.ceil(plain.weights.bytes / 16) * 16);
    expect(ext.used).toBe(ext.peak + ext.weights);
    expect(plan.storage.io).toMatchObject({ owner: 'application', inArena: 0 });
    expect(plan.storage.io.bytes).toBe(plain.storage.io.bytes);
    for (const r of plan.regions as { io: number }[]) expect(r.io).toBe(0);
    const text = run(['plan', ...args, '--weights', 'copy-to:ext-ram', '--io', 'application']).out;
    expect(text).toMatch(/region ext-ram .*\+ [\d.]+ [KMG]?i?B weights = [\d.]+ [KMG]?i?B\)/);
    expect(text).toMatch(/weights {7}.* \(in ext-ram for the whole run, copied from flash at start, below the arena\)/);
    expect(text).toMatch(/graph I\/O {5}.* of data in inputs and outputs in all over the run, owned by the application, outside the arena/);
  });

  it('on a host, which has no flash, say the weights are outside the planned regions, loaded by the runtime', () => {
    // tiny-llama on cpu read "weights 2.03 MiB in 36 tensors (in flash, outside every region)"
    const host = [DETECTOR, '--target', 'cpu', '--dim', 'image:2=320', '--dim', 'image:3=320'];
    expect(planJson(host).storage.weights).toMatchObject({ in: 'flash', copied: false, home: 'runtime' });
    const text = run(['plan', ...host]).out;
    expect(text).toMatch(/weights {7}.* \(outside the planned regions, loaded or mapped by the runtime\)\n/);
    expect(text).not.toContain('flash');
    expect(run(['plan', ...host, '--weights', 'copy-to:ram']).out).toMatch(/weights {7}.* \(in ram for the whole run, copied there at start, below the arena\)/);
    // a microcontroller keeps them in flash
    expect(run(['plan', ...args]).out).toMatch(/weights {7}.* \(in flash, outside every region\)\n/);
  });

  it.runIf(existsSync(GPT2))("give per region as io every graph input and output planned there, summed over the run: not bytes live at once, so it may pass the region's peak", () => {
    const plan = planJson([GPT2, '--target', 'mcu', '--dim', 'past_seq_len=64']);
    const buffers = plan.buffers as { kind: string; region: string; size: number }[];
    for (const r of plan.regions as { name: string; io: number }[]) {
      expect(r.io).toBe(buffers.filter((b) => b.region === r.name && (b.kind === 'input' || b.kind === 'output')).reduce((sum, b) => sum + b.size, 0));
    }
    const sram = (plan.regions as { name: string; io: number; peak: number }[]).find((r) => r.name === 'sram')!;
    expect(sram.io).toBeGreaterThan(sram.peak); // the README once called it "within peak"
  });

  it('weights in a region too small for them: DOES NOT FIT says how much of the need is weights', () => {
    const mcu = presetTarget('mcu');
    const small = join(dir, 'small-sram.json');
    writeFileSync(small, JSON.stringify({ ...mcu, regions: mcu.regions.map((r) => (r.name === 'sram' ? { ...r, sizeLimit: 8192 } : r)) }));
    const json = planJson([DETECTOR, '--target', small, '--weights', 'sram'], 3);
    const sram = (json.regions as (Region & { weights: number; used: number })[]).find((r) => r.name === 'sram')!;
    expect(sram.weights).toBeGreaterThan(8192);
    expect([sram.peak, sram.used, sram.overBy]).toEqual([0, sram.weights, sram.weights - 8192]);
    expect(json.fits).toBe(false);
    const text = run(['plan', DETECTOR, '--target', small, '--weights', 'sram']).out;
    expect(text).toMatch(/DOES NOT FIT {2}region sram needs [\d.]+ KiB \([\d.]+ KiB of it weights\), [\d.]+ KiB over its 8\.00 KiB limit/);
  });

  it('refuse a region the target does not have and a value they do not take, in one line', () => {
    const region = run(['plan', ...args, '--weights', 'rom']);
    expect([region.code, region.err.trim()]).toEqual([2, 'heapscope: target mcu has no region "rom" for the weights (regions: sram, ext-ram; or flash)']);
    const copy = run(['plan', ...args, '--weights', 'copy-to:']);
    expect(copy.err.trim()).toBe('heapscope: --weights takes flash, a region name or copy-to:REGION, got "copy-to:"');
    const io = run(['plan', ...args, '--io', 'app']);
    expect([io.code, io.err.trim()]).toEqual([2, 'heapscope: --io must be one of arena, application, got "app"']);
  });

  it.skipIf(!existsSync(ULTRAFACE))('explains a spilled group of buffers sharing bytes as the block they share: its steps, how many share it, and the reason says so', () => {
    const plan = planJson([ULTRAFACE, '--target', 'mcu']);
    // 282 lives steps [24, 26); Relu_25's 283 holds its bytes in place to step 43, and the two spilled as one block
    const b282 = plan.buffers.find((b: { name: string }) => b.name === '282');
    expect([b282.start, b282.end]).toEqual([24, 26]);
    const record = plan.explanation.spilled.find((s: { id: number }) => s.id === b282.id);
    expect(record).toMatchObject({ name: '282', start: 24, end: 43, span: 19, shared: 1 });
    expect(record.reason).toMatch(/^the block 282 and 283 share, steps \[24, 43\): [\d.]+ MiB moved over 19 steps/);
    // a spilled buffer alone has no block to name
    for (const s of plan.explanation.spilled as { shared: number; reason: string }[]) if (s.shared === 0) expect(s.reason).not.toMatch(/^the block/);
  }, 60_000);
});
