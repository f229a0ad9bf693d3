// `heapscope sweep` up to 2^53 − 1: where sizes overflow, the plans are lower
// estimates (≥) that fall; they say nothing about whether the peak grows, the
// rows stay aligned and sizes past TiB read in PiB. Skips when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const have = existsSync(GPT2);
const ARGS = ['sweep', GPT2, '--dim', 'past_seq_len=0..9007199254740991'];

describe.skipIf(!have)('sweep into overflowing sizes', () => {
  it('judges monotonic on the complete plans and says which lower estimates it left out', () => {
    const json = run([...ARGS, '--json']);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.out);
    const open = result.points.filter((p: { complete: boolean; error?: string }) => !p.complete && p.error === undefined).map((p: { value: number }) => p.value);
    expect(open.length).toBeGreaterThan(1);
    expect(result.monotonic).toBe(true);
    expect(result.monotonicLeftOut).toEqual(open);

    const text = run(ARGS);
    expect(text.code).toBe(0);
    expect(text.out).not.toContain('not monotonic');
    expect(text.out).toMatch(/monotonic: yes, the peak never falls as past_seq_len grows \(\d+ values with every size known\); left out: \d+ lower estimates, some sizes too large \(at .*\)/);
  });

  it('keeps the columns aligned past 10-digit values and writes PiB, not thousands of TiB', () => {
    const { out } = run(ARGS);
    expect(out).not.toMatch(/\d{4} TiB/);
    expect(out).toContain('1.50 PiB');
    const rows = out.split('\n').filter((line) => /^\s+\d+\s+(≥ )?\d/.test(line));
    expect(rows.length).toBeGreaterThan(40);
    // each row's value ends, and its peak ends, in the same column as the header's
    const header = out.split('\n').find((line) => /past_seq_len\s+peak\s+bound/.test(line))!;
    const valueEnd = header.indexOf('past_seq_len') + 'past_seq_len'.length;
    const peakEnd = header.indexOf('peak') + 'peak'.length;
    for (const row of rows) {
      expect(row.length > valueEnd && /\d/.test(row[valueEnd - 1]!) && row[valueEnd] === ' ', row).toBe(true);
      expect(/[KMGTPE]?i?B/.test(row.slice(peakEnd - 3, peakEnd)) && row[peakEnd] === ' ', row).toBe(true);
    }
  });
});
