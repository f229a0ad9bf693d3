// Resolves a problem's aliases into alias groups: buffers that share memory on
// purpose and move as one unit. Pure data; depends only on problem types.

import { gcd } from '../../shared/integers';
import { alignmentOf, regionOf, type PlacementProblem } from './problem';

/** Buffers placed as one unit: each member sits at the group's base offset + its `rel`. */
export interface AliasGroup {
  readonly members: readonly number[]; // buffer ids, ascending
  readonly rel: readonly number[]; // bytes from the group's base, per member; the smallest is 0
  readonly modulus: number; // the base offset must be ≡ phase (mod modulus) ...
  readonly phase: number; // ... so that every member meets its own alignment
  readonly fixedBase: number | undefined; // set when a member has a fixed offset
  readonly region: string;
}

/** Alias groups of a problem, plus anything that makes its aliases unusable. */
export interface ResolvedAliases {
  readonly groups: readonly AliasGroup[]; // ordered by smallest member id
  readonly groupOf: Int32Array; // group index of each buffer
  readonly issues: readonly string[]; // empty when the aliases are consistent
}

/** Alignment beyond which a group's combined alignment is treated as an error. */
const MAX_MODULUS = 2 ** 40;

/**
 * Groups buffers joined by aliases (chains allowed: a Reshape of a Split window)
 * and derives each group's layout, alignment and fixed position.
 */
export function resolveAliasGroups(problem: PlacementProblem): ResolvedAliases {
  const issues: string[] = [];
  const n = problem.buffers.length;
  const links = parentLinks(problem, issues);
  if (links.size === 0) {
    // no aliases (every problem CSV): each buffer is its own group, in id order
    const groupOf = new Int32Array(n);
    for (let b = 0; b < n; b++) groupOf[b] = b;
    return { groups: problem.buffers.map((_, b) => singleGroup(problem, b)), groupOf, issues };
  }
  const toRoot = rootOffsets(links, n, issues);
  const byRoot = new Map<number, number[]>();
  for (let b = 0; b < n; b++) {
    const root = toRoot.root[b]!;
    const list = byRoot.get(root);
    if (list === undefined) byRoot.set(root, [b]);
    else list.push(b);
  }
  const groups = [...byRoot.values()]
    .sort((x, y) => x[0]! - y[0]!)
    .map((members) => describeGroup(problem, members, toRoot.offset, issues));
  const groupOf = new Int32Array(n);
  groups.forEach((group, g) => group.members.forEach((b) => (groupOf[b] = g)));
  return { groups, groupOf, issues };
}

/** Alias groups split by region, regions in order of first appearance among the buffers. */
export function groupsByRegion(
  problem: PlacementProblem,
  groups: readonly AliasGroup[],
): { readonly name: string; readonly groups: AliasGroup[] }[] {
  const regions = new Map<string, AliasGroup[]>();
  for (const buffer of problem.buffers) {
    const name = regionOf(buffer);
    if (!regions.has(name)) regions.set(name, []);
  }
  for (const group of groups) regions.get(group.region)!.push(group);
  return [...regions].map(([name, list]) => ({ name, groups: list }));
}

interface Link {
  readonly parent: number;
  readonly offset: number;
}

function parentLinks(problem: PlacementProblem, issues: string[]): Map<number, Link> {
  const n = problem.buffers.length;
  const links = new Map<number, Link>();
  for (const alias of problem.aliases ?? []) {
    const { buffer, parent, offset } = alias;
    if (!isId(buffer, n) || !isId(parent, n)) {
      issues.push(`alias ${buffer} -> ${parent} names a buffer that does not exist`);
    } else if (buffer === parent) {
      issues.push(`buffer ${buffer} is declared an alias of itself`);
    } else if (!Number.isSafeInteger(offset)) {
      issues.push(`alias of buffer ${buffer} has offset ${offset}, not an integer`);
    } else if (links.has(buffer)) {
      issues.push(`buffer ${buffer} is declared an alias twice`);
    } else if (regionOf(problem.buffers[buffer]!) !== regionOf(problem.buffers[parent]!)) {
      issues.push(`buffer ${buffer} aliases buffer ${parent} of another region`);
    } else {
      links.set(buffer, { parent, offset });
    }
  }
  return links;
}

/** Follows parent links to each buffer's root, summing offsets; cuts cycles. */
function rootOffsets(links: Map<number, Link>, n: number, issues: string[]) {
  const root = new Int32Array(n).fill(-1);
  const offset = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    if (!links.has(b)) {
      root[b] = b;
      continue;
    }
    const path: number[] = [];
    const onPath = new Set<number>();
    let x = b;
    while (root[x] === -1 && links.has(x) && !onPath.has(x)) {
      path.push(x);
      onPath.add(x);
      x = links.get(x)!.parent;
    }
    if (onPath.has(x)) {
      issues.push(`aliases form a cycle through buffer ${x}`);
      links.delete(x); // break it so every buffer still gets a root
      path.length = path.indexOf(x);
    }
    if (root[x] === -1) root[x] = x;
    for (let i = path.length - 1; i >= 0; i--) {
      const y = path[i]!;
      const link = links.get(y)!;
      root[y] = root[link.parent]!;
      offset[y] = offset[link.parent]! + link.offset;
    }
  }
  return { root, offset };
}

function describeGroup(problem: PlacementProblem, members: number[], toRoot: Float64Array, issues: string[]): AliasGroup {
  if (members.length === 1) return singleGroup(problem, members[0]!);
  let min = Infinity;
  for (const b of members) min = Math.min(min, toRoot[b]!);
  const rel = members.map((b) => toRoot[b]! - min);
  const { modulus, phase } = combineAlignments(problem, members, rel, issues);
  let fixedBase: number | undefined;
  members.forEach((b, i) => {
    const fixed = problem.buffers[b]!.fixedOffset;
    if (fixed === undefined) return;
    const base = fixed - rel[i]!;
    if (fixedBase !== undefined && base !== fixedBase) {
      issues.push(`buffer ${b}: fixed offset ${fixed} disagrees with the fixed offsets of its alias group`);
    } else if (base < 0) {
      issues.push(`buffer ${b}: fixed offset ${fixed} puts another buffer of its alias group below 0`);
    } else if (modulus > 0 && posMod(base - phase, modulus) !== 0) {
      issues.push(`buffer ${b}: fixed offset ${fixed} misaligns a buffer of its alias group`);
    }
    fixedBase ??= base;
  });
  return { members, rel, modulus, phase, fixedBase, region: regionOf(problem.buffers[members[0]!]!) };
}

/** The group of a buffer that shares memory with no other. */
function singleGroup(problem: PlacementProblem, b: number): AliasGroup {
  const buffer = problem.buffers[b]!;
  const align = alignmentOf(problem, buffer);
  const modulus = Number.isSafeInteger(align) && align >= 1 ? align : 1; // a bad alignment is reported by checkProblem
  return { members: [b], rel: [0], modulus, phase: 0, fixedBase: buffer.fixedOffset, region: regionOf(buffer) };
}

/** Solves base + rel[i] ≡ 0 (mod alignment of member i) for all members at once. */
function combineAlignments(problem: PlacementProblem, members: number[], rel: number[], issues: string[]) {
  let modulus = 1;
  let phase = 0;
  for (let i = 0; i < members.length; i++) {
    const align = alignmentOf(problem, problem.buffers[members[i]!]!);
    if (!Number.isSafeInteger(align) || align < 1) continue; // reported by checkProblem
    const want = posMod(-rel[i]!, align);
    if (posMod(phase, align) === want && modulus % align === 0) continue;
    const step = gcd(modulus, align);
    if (posMod(want - phase, step) !== 0) {
      issues.push(`buffer ${members[i]}: its offset inside its alias group cannot meet alignment ${align}`);
      continue;
    }
    let x = phase;
    while (posMod(x, align) !== want) x += modulus;
    modulus = (modulus / step) * align;
    if (modulus > MAX_MODULUS) {
      issues.push(`alias group of buffer ${members[0]} combines alignments beyond ${MAX_MODULUS} bytes`);
      return { modulus: 1, phase: 0 };
    }
    phase = posMod(x, modulus);
  }
  return { modulus, phase };
}

function posMod(a: number, m: number): number {
  const r = a % m;
  return r < 0 ? r + m : r;
}

function isId(value: number, n: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < n;
}
