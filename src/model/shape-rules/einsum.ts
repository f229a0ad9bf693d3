// Shape rule for Einsum: parses the equation, binds each letter to a dim and
// broadcasts the ellipsis axes across operands. Pure; no DOM.

import { broadcastShapes } from './broadcast';
import { fail, makeFact, requireInput, requireShape } from './tensor-facts';
import type { Dim, RuleContext, RuleResult } from './types';

interface Term {
  readonly letters: readonly string[]; // subscripts, without the ellipsis
  readonly ellipsisAt: number | undefined; // index among `letters` where '...' stands
}

function parseTerm(text: string): Term {
  const at = text.indexOf('...');
  const letters = text.replace('...', '').split('');
  if (letters.some((c) => !/^[A-Za-z]$/.test(c))) fail(`bad Einsum term '${text}'`);
  return { letters, ellipsisAt: at < 0 ? undefined : text.slice(0, at).length };
}

/** Binds one operand's letters to its dims; returns the dims its ellipsis stands for. */
function bindOperand(term: Term, shape: readonly Dim[], sizes: Map<string, Dim>): readonly Dim[] {
  const ellipsisRank = shape.length - term.letters.length;
  if (ellipsisRank < 0 || (term.ellipsisAt === undefined && ellipsisRank !== 0)) {
    fail(`Einsum term of ${term.letters.length} subscripts does not fit rank ${shape.length}`);
  }
  const at = term.ellipsisAt ?? term.letters.length;
  term.letters.forEach((letter, i) => {
    const dim = shape[i < at ? i : i + ellipsisRank];
    const seen = sizes.get(letter);
    // A size-1 dim broadcasts against the letter's other occurrences.
    if (seen === undefined || seen === 1) sizes.set(letter, dim ?? seen);
  });
  return shape.slice(at, at + ellipsisRank);
}

/** Letters of the implicit output: those used exactly once, in alphabetical order. */
function implicitOutput(terms: readonly Term[]): string {
  const counts = new Map<string, number>();
  for (const term of terms) for (const c of term.letters) counts.set(c, (counts.get(c) ?? 0) + 1);
  const once = [...counts].filter(([, n]) => n === 1).map(([c]) => c);
  return '...' + once.sort().join('');
}

/** Einsum: the output's dims follow the output subscripts (explicit or implicit). */
export function einsumRule(ctx: RuleContext): RuleResult {
  const equation = ctx.string('equation', '').replace(/\s+/g, '');
  const [lhs = '', rhs] = equation.split('->');
  const terms = lhs.split(',').map(parseTerm);
  if (terms.length !== ctx.node.inputs.length) fail(`equation '${equation}' names ${terms.length} operands`);
  const sizes = new Map<string, Dim>();
  const ellipses = terms.map((term, i) => bindOperand(term, requireShape(requireInput(ctx, i, `operand ${i}`), `operand ${i}`), sizes));
  const ellipsis = broadcastShapes(ellipses) ?? [];
  const out = parseTerm(rhs ?? implicitOutput(terms));
  const dims: Dim[] = out.letters.map((c) => sizes.get(c));
  if (out.ellipsisAt !== undefined) dims.splice(out.ellipsisAt, 0, ...ellipsis);
  return [makeFact(ctx.inputs[0]?.dtype, dims)];
}
