// The plan text names what its figures are: graph I/O as data and as placed
// (aligned, where the two read apart), and a spill that moved nothing says so. Skips with a notice when
// ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const have = existsSync(MODELS);
if (!have) console.log(`cli plan text labels: ${MODELS} is absent; skipping`);

describe.skipIf(!have)('plan text labels', () => {
  it('says the graph I/O of a region is as placed, and the data beside it', () => {
    const out = run(['plan', join(MODELS, 'wonnx_single_relu.onnx')]).out;
    expect(out).toMatch(/region ram +128 B \(.*128 B of graph I\/O placed here over the run\)/);
    expect(out).toContain('graph I/O     16 B of data in inputs and outputs in all over the run (128 B as placed, with alignment), in the arena');
  });

  it("says a decoder's graph I/O is a total over the run, larger than the region's peak, and how much of it is its KV cache", () => {
    const args = ['plan', join(MODELS, 'tiny-random-gpt2-fp32-past.onnx'), '--dim', 'past_seq_len=16', '--dim', 'seq_len=1'];
    const out = run(args).out;
    expect(out).toMatch(/region ram +25\.8 KiB \(.*, 45\.4 KiB of graph I\/O placed here over the run\)/);
    // the figure as placed is of all the inputs and outputs: it stands beside their total, not after the KV cache's share
    expect(out).toContain('graph I/O     45.2 KiB of data in inputs and outputs in all over the run (45.4 KiB as placed, with alignment), 41.3 KiB of it KV cache, in the arena');
    // five past inputs of 1×4×16×16 float32 and five present outputs of 1×4×17×16
    expect(JSON.parse(run([...args, '--json']).out).storage.io.kvBytes).toBe(5 * 4 * 16 * 16 * 4 + 5 * 4 * 17 * 16 * 4);
  });

  it('gives graph I/O as placed only where it reads apart from the data, never the same figure twice', () => {
    const args = ['plan', join(MODELS, 'tiny-random-gpt2-fp32-past.onnx'), '--dim', 'past_seq_len=1000', '--dim', 'seq_len=1'];
    // it read "2.45 MiB of inputs and outputs …, 2.44 MiB of them KV cache (their data; 2.45 MiB as placed, with alignment)"
    const io = JSON.parse(run([...args, '--json']).out).storage.io;
    expect(io.inArena).toBeGreaterThan(io.bytes);
    expect(run(args).out).toContain('graph I/O     2.45 MiB of data in inputs and outputs in all over the run, 2.44 MiB of it KV cache, in the arena\n');
  });

  it('a spill that moved nothing says nothing spilled, and names the workspaces the scratch rules put in ext-ram', () => {
    const out = run(['plan', join(MODELS, 'winml_mnist.onnx'), '--target', 'mcu']).out;
    expect(out).toMatch(/spill {9}nothing spilled: no buffer planned in sram moved to a slower region; 4 scratch buffers are in ext-ram by the target's scratch rules, not spilled: their rules are not latency-critical, .*\n/);
    expect(out).toMatch(/region ext-ram +2\.00 KiB/);
    expect(out).not.toMatch(/to none/);
  });
});
