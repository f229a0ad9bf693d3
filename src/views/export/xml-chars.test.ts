// Names with control characters never make the heap SVG ill-formed.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { CONTROL_TEXT, controlNamesModel } from '../../model/testing/hostile-models';
import { planModel } from '../../planner/plan';
import { presetTarget } from '../../planner/targets/presets';
import { heapSvg } from './heap-svg';
import { escapeXml, xmlChars } from './xml-chars';

/** Characters XML 1.0 allows: tab, newline, carriage return, U+0020–U+D7FF, U+E000–U+FFFD, and paired surrogates. */
function onlyXmlChars(text: string): boolean {
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const ok = code === 9 || code === 10 || code === 13 || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    if (!ok) return false;
  }
  return true;
}

describe('XML 1.0 characters in exports', () => {
  it('replaces every forbidden character and keeps the rest', () => {
    expect(onlyXmlChars(CONTROL_TEXT)).toBe(false);
    const safe = xmlChars(CONTROL_TEXT);
    expect(onlyXmlChars(safe)).toBe(true);
    expect(safe).toContain('\t\n');
    expect(safe).toContain('\r');
    expect(xmlChars('emoji 😀 stays')).toBe('emoji 😀 stays');
    expect(escapeXml('a\u0001<b>')).toBe('a\ufffd&lt;b&gt;');
  });

  it('the heap SVG of a model whose names hold control characters has only XML characters', () => {
    const model = inferShapes(decodeOnnx(controlNamesModel()));
    const svg = heapSvg(planModel(model, presetTarget('cpu')), { title: `model ${CONTROL_TEXT}` });
    expect(onlyXmlChars(svg)).toBe(true);
    expect(svg).toContain('&lt;&amp;&gt;&quot;&apos;z');
  });
});
