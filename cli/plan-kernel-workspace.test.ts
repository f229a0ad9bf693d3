// A fused attention op's kernel workspace the target has no scratch rule for
// is said, with ONNX Runtime's CPU estimate, in `plan` (text and --json) and
// `sweep` (text and --json): it was left out of the figures without a word.
// Skips with a notice when ../shared is absent.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const LLAMA = join(MODELS, 'tiny-llama-fp16/model.onnx');
const have = existsSync(GPT2) && existsSync(LLAMA);
if (!have) console.log(`cli kernel workspace: ${MODELS} is absent; skipping`);

// 1 × 2048 × 96 × 4 (Q/K/V) + 1 × 2048 × 2048 × 4 (causal mask) + 1 × 4 × 2048 × 2048 × 4 (probabilities) + 1 × 2048 × 32 × 4 (out_tmp)
const GPT2_AT_2048 = "ONNX Runtime's CPU kernel allocates about 81.0 MiB (84,934,656 B) for the largest, 'GptAttention_0'";

describe.skipIf(!have)('kernel workspace of fused attention ops on a target with no scratch rule for them', () => {
  it('plan says it in a warning line near the top and in its diagnostics', () => {
    const { code, out } = run(['plan', GPT2, '--dim', 'seq_len=2048']);
    expect(code).toBe(0);
    const warning = out.split('\n').find((l) => l.startsWith('  warning       kernel workspace not counted'));
    expect(warning).toContain(`5 Attention operators (com.microsoft::Attention); ${GPT2_AT_2048}`);
    expect(warning).toContain('not in this plan — add a scratch rule for com.microsoft::Attention to the target to plan it');
    expect(out).toContain('[kernel-workspace] kernel workspace not counted');
  });

  it('plan --strict refuses figures that leave it out, in one line, as it refuses an unknown size', () => {
    const bound = ['--dim', 'seq_len=2048', '--dim', 'past_seq_len=0', '--dim', 'batch_size=1'];
    const { code, err } = run(['plan', GPT2, ...bound, '--strict']);
    expect(code).toBe(2);
    expect(err).toBe(
      `heapscope: ${GPT2}: --strict: the figures leave out the kernel workspace of 5 fused attention operator(s) the target has no scratch rule for, largest 'GptAttention_0' (about 81.0 MiB (84,934,656 B)); add a scratch rule for com.microsoft::Attention to the target to plan it\n`,
    );
    // diff --strict refuses the side the same way, as it does every plan --strict refusal
    const diff = run(['diff', GPT2, GPT2, '--b-dim', 'seq_len=2048', ...bound, '--strict']);
    expect(diff.code).toBe(2);
    expect(diff.err).toContain("--strict: the figures leave out the kernel workspace of 5 fused attention operator(s)");
  });

  it('plan --json carries it in diagnostics and assumptions.workspace, largest first', () => {
    const plan = planJson([LLAMA, '--dim', 'sequence_length=2048']);
    // 1 × 1 × 2048 × 2048 × 2 (fp16 probabilities) + 1 × 2048 × 16 × 2 (out_tmp); Q/K/V copies not counted: at least
    expect(plan.assumptions.workspace[0]).toMatchObject({ node: '/model/layers.0/attn/MultiHeadAttention', opType: 'com.microsoft::MultiHeadAttention', bytes: 8_454_144, lowerEstimate: true });
    const note = plan.diagnostics.find((d: { code: string }) => d.code === 'kernel-workspace');
    expect(note.message).toContain("2 MultiHeadAttention operators (com.microsoft::MultiHeadAttention); ONNX Runtime's CPU kernel allocates at least 8.06 MiB (8,454,144 B)");
  });

  it('sweep names the largest estimate over the values, and --json gives it per point', () => {
    const { code, out } = run(['sweep', GPT2, '--dim', 'seq_len=1..2048']);
    expect(code).toBe(0);
    expect(out).toContain(`  not counted: kernel workspace of 5 fused attention operators the target has no scratch rule for; ${GPT2_AT_2048.replace("'GptAttention_0'", "'GptAttention_0' at seq_len=2048")}`);
    const json = JSON.parse(run(['sweep', GPT2, '--dim', 'seq_len=1..2048', '--json']).out);
    expect(json.points.at(-1).workspace).toMatchObject({ operators: 5, largest: { node: 'GptAttention_0', bytes: 84_934_656 } });
  });
});

// What ONNX Runtime's CPU Attention allocates, as a target's scratch rule writes it (README, scratch formulas):
// Q/K/V projection B × S × (D + D + D_v), causal mask B × S × T, probabilities B × N × S × T, output temp (= the output's bytes)
const ATTENTION_RULE = 'in0[0] * in0[1] * in1[1] * elem(in0) + in0[0] * in0[1] * out1[3] * elem(in0) + in0[0] * attr(num_heads) * in0[1] * out1[3] * elem(in0) + bytes(out0)';

describe.skipIf(!have)('a target whose scratch rule plans the attention workspace', () => {
  const target = join(mkdtempSync(join(tmpdir(), 'heapscope-attn-')), 'host.json');
  writeFileSync(target, JSON.stringify({ name: 'host', regions: [{ name: 'ram', alignment: 64 }], scratch: { rules: [{ opType: 'com.microsoft::Attention', name: 'workspace', formula: ATTENTION_RULE }] } }));

  it("plans each Attention's workspace at ONNX Runtime's size, and says nothing is left out", () => {
    const plan = planJson([GPT2, '--dim', 'seq_len=2048', '--target', target]);
    expect(plan.diagnostics.filter((d: { code: string }) => d.code === 'kernel-workspace')).toEqual([]);
    expect(plan.assumptions.workspace).toBeUndefined();
    const scratch = plan.buffers.filter((b: { name: string }) => b.name.endsWith(':workspace'));
    expect(scratch).toHaveLength(5);
    expect(scratch[0]).toMatchObject({ name: 'GptAttention_0:workspace', size: 84_934_656 });
    expect(plan.peak).toBeGreaterThan(84_934_656);
    // nothing is left out, so --strict has nothing to refuse
    const strict = run(['plan', GPT2, '--dim', 'seq_len=2048', '--dim', 'past_seq_len=0', '--dim', 'batch_size=1', '--target', target, '--strict']);
    expect([strict.code, strict.err]).toEqual([0, '']);
  });
});

describe('kernel workspace of unknown size beside a known one', () => {
  it('sweep and the sweep --json point say how many more are of unknown size, as plan does', async () => {
    const { GraphBuilder } = await import('../src/model/testing/onnx-writer');
    // two MultiHeadAttention ops on the flash path (size depends on the host) around a causal one (sized)
    const g = new GraphBuilder('mha');
    g.input('x', 'float32', [1, 'seq', 32]);
    const a = g.node('MultiHeadAttention', ['x', 'x', 'x'], { num_heads: 4 }, { domain: 'com.microsoft', name: 'flash' });
    const b = g.node('MultiHeadAttention', [a, a, a], { num_heads: 4, unidirectional: 1 }, { domain: 'com.microsoft', name: 'causal' });
    g.output(g.node('MultiHeadAttention', [b, b, b], { num_heads: 4 }, { domain: 'com.microsoft', name: 'flash2' }), 'float32', [1, 'seq', 32]);
    const file = join(mkdtempSync(join(tmpdir(), 'heapscope-mha-')), 'mha.onnx');
    writeFileSync(file, g.toBytes({ opset: 17, opsets: { 'com.microsoft': 1 } }));
    // it read '… at least 88.0 KiB (90,112 B) for the largest, 'causal' at seq=64 (…), not in these peaks', the two of unknown size unsaid
    const text = run(['sweep', file, '--dim', 'seq=1..64']).out;
    expect(text).toContain("for the largest known, 'causal' at seq=64");
    expect(text).toContain('and workspace of unknown size for 2 more, not in these peaks');
    const last = JSON.parse(run(['sweep', file, '--dim', 'seq=1..64', '--json']).out).points.at(-1);
    expect(last.workspace).toMatchObject({ operators: 3, unknown: 2, largest: { node: 'causal' } });
  });
});
