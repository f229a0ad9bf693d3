// planCHeader: a C header for embedded deployment of a saved plan: the arena
// size of every region, where its arena starts from the region's base (after
// the weights set aside there) and the weights' bytes in it, and the offset
// and size of every buffer, as macros with
// unique C identifiers. A region over its size limit stops the build with
// #error (or a #warning when OVER_LIMIT_WARNING is defined before the include).
// Depends only on the plan file types.

import type { PlanFile } from '../assembly/plan-file';

/** Identifier prefix of every macro. */
const PREFIX = 'HEAPSCOPE';
/** Defined before the include, it turns the #error of a region over its limit into a #warning. */
export const OVER_LIMIT_WARNING = `${PREFIX}_OVER_LIMIT_WARNING`;

/** The C header of `file`; see the module header. Include-guarded, C89-clean. */
export function planCHeader(file: PlanFile): string {
  const { plan, settings } = file;
  const ids = new UniqueIds();
  const guard = ids.take(`${PREFIX}_PLAN_${cName(baseName(file.model))}_H`);
  const dims = Object.entries(settings.dims).map(([name, value]) => `${name}=${value}`).join(', ');
  const lines = [
    `/* Memory plan of ${comment(file.model)}, made by heapscope.`,
    ` * target: ${comment(settings.target)}${settings.target !== plan.target ? ` (${comment(plan.target)})` : ''}; strategy: ${comment(plan.strategy)}`,
    ` * dims: ${dims === '' ? 'none' : comment(dims)}`,
    ` * peak: ${plan.peak} bytes over ${plan.regions.length} region(s); lower bound ${plan.lowerBound} bytes.`,
    ...verdictComment(plan.regions),
    ` * Offsets are in bytes from the start of each region's arena, which starts`,
    ` * <region>_ARENA_START bytes from the region's base, after the weights kept`,
    ` * there (<region>_WEIGHTS_BYTES). Buffers with`,
    ` * disjoint lifetimes share bytes on purpose: keep the execution order. */`,
    `#ifndef ${guard}`,
    `#define ${guard}`,
    '',
    ...overLimitDirectives(plan.regions),
    `#define ${ids.take(`${PREFIX}_PEAK_BYTES`)} ${plan.peak}UL`,
    `#define ${ids.take(`${PREFIX}_BUFFER_COUNT`)} ${plan.buffers.length}UL`,
  ];
  const regionIds = new Map<string, string>();
  for (const region of plan.regions) {
    const id = ids.take(`${PREFIX}_${cName(region.name)}`, ['_ARENA_SIZE', '_ARENA_START', '_WEIGHTS_BYTES']);
    regionIds.set(region.name, id);
    const limit = region.sizeLimit === undefined ? '' : `, limit ${region.sizeLimit} bytes${overBy(region) > 0 ? `, over by ${overBy(region)} bytes` : ''}`;
    lines.push(`#define ${id}_ARENA_SIZE ${region.peak}UL /* region ${comment(region.name)}: ${region.fast ? 'fast' : 'slow'}${limit} */`);
    const weights = region.weights ?? 0;
    lines.push(`#define ${id}_ARENA_START ${weights}UL /* from the region's base */`, `#define ${id}_WEIGHTS_BYTES ${weights}UL /* weights kept at the region's base, rounded up to its alignment */`);
  }
  for (const region of plan.regions) {
    const buffers = plan.buffers.filter((b) => b.region === region.name);
    if (buffers.length === 0) continue;
    lines.push('', `/* region ${comment(region.name)}: ${buffers.length} buffer(s) */`);
    for (const b of buffers) {
      const id = ids.take(`${regionIds.get(region.name)!}_${cName(b.name)}`, ['_OFFSET', '_SIZE']);
      const alias = b.alias === undefined ? '' : `, inside buffer ${b.alias.parent} (${b.alias.rule})`;
      lines.push(`/* ${comment(b.name)}: ${b.kind}, steps [${b.start}, ${b.end})${b.node === undefined ? '' : `, node ${comment(b.node)}`}${alias} */`);
      lines.push(`#define ${id}_OFFSET ${b.offset}UL`, `#define ${id}_SIZE ${b.size}UL`);
    }
  }
  lines.push('', `#endif /* ${guard} */`);
  return lines.join('\n') + '\n';
}

type Region = PlanFile['plan']['regions'][number];

/** Bytes a region needs above its size limit; 0 when it fits or has none. */
function overBy(r: Region): number {
  return r.overBy ?? (r.sizeLimit === undefined ? 0 : Math.max(0, usedOf(r) - r.sizeLimit));
}

/** Bytes a region holds at most: its arena and the weights kept there. */
function usedOf(r: Region): number {
  return r.used ?? r.peak;
}

/** The verdict in the header's comment, and how to build anyway when a region is over its limit. */
function verdictComment(regions: readonly Region[]): string[] {
  const over = regions.filter((r) => overBy(r) > 0);
  if (over.length === 0) return regions.some((r) => r.sizeLimit !== undefined) ? [' * fits: every region is within its size limit.'] : [];
  return [
    ` * DOES NOT FIT: ${over.map((r) => `${comment(r.name)} needs ${usedOf(r)} bytes, ${overBy(r)} over its limit of ${r.sizeLimit} bytes`).join('; ')}.`,
    ` * Including this header stops the build with #error; define ${OVER_LIMIT_WARNING}`,
    ` * before the include (or -D${OVER_LIMIT_WARNING}) to make it a #warning instead.`,
  ];
}

/** An #error per region over its limit, a #warning instead when OVER_LIMIT_WARNING is defined. */
function overLimitDirectives(regions: readonly Region[]): string[] {
  const over = regions.filter((r) => overBy(r) > 0);
  if (over.length === 0) return [];
  const out = [`#ifndef ${OVER_LIMIT_WARNING}`];
  const messages = over.map((r) => `"heapscope: region ${cString(r.name)} needs ${usedOf(r)} bytes, ${overBy(r)} over its limit of ${r.sizeLimit} bytes"`);
  for (const m of messages) out.push(`#error ${m}`);
  out.push('#else');
  for (const m of messages) out.push(`#warning ${m}`);
  out.push('#endif', '');
  return out;
}

/** Text safe inside a C string literal on one line. */
function cString(text: string): string {
  return comment(text).replace(/[\\"]/g, (c) => `\\${c}`);
}

/** An upper-case C identifier part: letters, digits and underscores, never empty. */
export function cName(text: string): string {
  const name = text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return name === '' ? 'X' : name;
}

/** Identifiers handed out once each: a repeated one gets _2, _3, ... (checked with every suffix it will carry). */
class UniqueIds {
  private readonly used = new Set<string>();

  take(base: string, suffixes: readonly string[] = ['']): string {
    let id = base;
    for (let k = 2; suffixes.some((s) => this.used.has(id + s)); k++) id = `${base}_${k}`;
    for (const s of suffixes) this.used.add(id + s);
    return id;
  }
}

/** Text safe inside a C comment on one line. */
function comment(text: string): string {
  return text.replace(/\*\//g, '* /').replace(/\/\*/g, '/ *').replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e]/g, '?');
}

function baseName(path: string): string {
  const last = path.split(/[\\/]/).pop() ?? path;
  return last.replace(/[?#].*$/, '').replace(/\.[A-Za-z0-9]+$/, '');
}
