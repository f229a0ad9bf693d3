// planCHeader: a C header for embedded deployment of a saved plan: the arena
// size of every region, where its arena starts from the region's base (after
// the weights set aside there) and the weights' bytes in it, and the offset
// and size of every buffer, as macros with
// unique C identifiers. A region over its size limit stops the build with
// #error (or a #warning when OVER_LIMIT_WARNING is defined before the include);
// so does a plan with a size unknown, whose buffers of unknown size are
// planned as 0 bytes, and a TensorFlow Lite Micro arena that is a lower
// estimate (a kernel's scratch requests not known, none assumed): a #warning
// when ALLOW_INCOMPLETE is defined.
// Depends only on the plan file types.

import type { PlanFile } from '../assembly/plan-file';

/** Identifier prefix of every macro. */
const PREFIX = 'HEAPSCOPE';
/** Defined before the include, it turns the #error of a region over its limit into a #warning. */
export const OVER_LIMIT_WARNING = `${PREFIX}_OVER_LIMIT_WARNING`;
/** Defined before the include, it turns the #error of an incomplete plan (or of a TFLM arena that is a lower estimate) into a #warning. */
export const ALLOW_INCOMPLETE = `${PREFIX}_ALLOW_INCOMPLETE`;
/** Defined before the include, it turns the #error of a model TensorFlow Lite Micro refuses into a #warning. */
export const ALLOW_REFUSED = `${PREFIX}_ALLOW_REFUSED`;

/** Stands for the include guard until the rest of the header, which the guard's hash is of, is written. */
const GUARD = '\u0000guard\u0000';

/**
 * The C header of `file`; see the module header. Include-guarded, C89-clean.
 * The guard is named by `headerName`, the file the header is written to (its
 * last path part: `ga_plan.h` gives HEAPSCOPE_GA_PLAN_H_…), else by the model
 * (HEAPSCOPE_PLAN_MODEL_H_…), and ends in a hash of the rest of the header:
 * two headers never share a guard, even of two models both named model.onnx
 * or written to plan.h in two folders (a shared guard made the compiler drop
 * the second header unsaid; their macros of one name now clash loudly).
 */
export function planCHeader(file: PlanFile, headerName?: string): string {
  const { plan, settings } = file;
  const ids = new UniqueIds();
  const guard = GUARD;
  const dims = Object.entries(settings.dims).map(([name, value]) => `${name}=${value}`).join(', ');
  const runtime = runtimePlacement(plan);
  const lines = [
    `/* Memory plan of ${comment(file.model)}, made by heapscope.`,
    ` * target: ${comment(settings.target)}${settings.target !== plan.target ? ` (${comment(plan.target)})` : ''}; strategy: ${comment(plan.strategy)}`,
    ` * dims: ${dims === '' ? 'none' : comment(dims)}`,
    ` * peak: ${plan.peak} bytes over ${plan.regions.length} region(s); lower bound ${plan.lowerBound} bytes.`,
    ...incompleteComment(plan),
    ...lowerArenaComment(plan),
    ...refusedComment(plan),
    ...verdictComment(plan.regions, plan.complete && unknownKernels(plan).length === 0),
    ` * Offsets are in bytes from the start of each region's arena, which starts`,
    ` * <region>_ARENA_START bytes from the region's base, after the weights kept`,
    ` * there (<region>_WEIGHTS_BYTES). Buffers with`,
    ` * disjoint lifetimes share bytes on purpose: keep the execution order. */`,
    `#ifndef ${guard}`,
    `#define ${guard}`,
    '',
    ...overLimitDirectives(plan.regions),
    ...incompleteDirectives(plan),
    ...lowerArenaDirectives(plan),
    ...refusedDirectives(plan),
    `#define ${ids.take(`${PREFIX}_PEAK_BYTES`)} ${plan.peak}UL${plan.runtimePlan === undefined ? '' : ` /* heapscope's placement drawn; TensorFlow Lite Micro's arena: ${PREFIX}_TFLM_TENSOR_ARENA_BYTES */`}`,
    `#define ${ids.take(`${PREFIX}_BUFFER_COUNT`)} ${plan.buffers.length}UL`,
    ...tflmArenaLines(plan, runtime?.drawnPeak, ids),
  ];
  const regionIds = new Map<string, string>();
  for (const region of plan.regions) {
    const id = ids.take(`${PREFIX}_${cName(region.name)}`, ['_ARENA_SIZE', '_ARENA_START', '_WEIGHTS_BYTES']);
    regionIds.set(region.name, id);
    const limit = region.sizeLimit === undefined ? '' : `, limit ${region.sizeLimit} bytes${overBy(region) > 0 ? `, over by ${overBy(region)} bytes` : ''}`;
    const size = runtime?.region === region.name ? runtime.head : region.peak;
    lines.push(`#define ${id}_ARENA_SIZE ${size}UL /* region ${comment(region.name)}: ${region.fast ? 'fast' : 'slow'}${limit} */`);
    const weights = region.weights ?? 0;
    lines.push(`#define ${id}_ARENA_START ${weights}UL /* from the region's base */`, `#define ${id}_WEIGHTS_BYTES ${weights}UL /* weights kept at the region's base, rounded up to its alignment */`);
  }
  const unknown = new Set((plan.assumptions?.unknown ?? []).map((u) => u.tensor));
  for (const region of plan.regions) {
    const buffers = plan.buffers.filter((b) => b.region === region.name);
    if (buffers.length === 0) continue;
    lines.push('', `/* region ${comment(region.name)}: ${buffers.length} buffer(s) */`);
    const byRuntime = runtime?.region === region.name ? runtime.offsetOf : undefined;
    if (runtime?.region === region.name && byRuntime === undefined) {
      lines.push("/* Offsets left out: this plan does not say where TensorFlow Lite Micro puts each buffer with the plan written in (an older plan file: plan the model again). */");
      continue;
    }
    for (const b of buffers) {
      const id = ids.take(`${regionIds.get(region.name)!}_${cName(b.name)}`, ['_OFFSET', '_SIZE']);
      const alias = b.alias === undefined ? '' : `, inside buffer ${b.alias.parent} (${b.alias.rule})`;
      const size = unknown.has(b.name) ? ', SIZE UNKNOWN: planned as 0 bytes' : '';
      lines.push(`/* ${comment(b.name)}: ${b.kind}, steps [${b.start}, ${b.end})${b.node === undefined ? '' : `, node ${comment(b.node)}`}${alias}${size} */`);
      const offset = byRuntime === undefined ? b.offset : byRuntime(b);
      lines.push(`#define ${id}_OFFSET ${offset}UL`, `#define ${id}_SIZE ${b.size}UL`);
    }
  }
  lines.push('', `#endif /* ${guard} */`);
  const text = lines.join('\n') + '\n';
  const named = headerName === undefined ? `PLAN_${cName(baseName(file.model))}_H` : cName(lastPart(headerName));
  return text.replaceAll(GUARD, ids.take(`${PREFIX}_${named}_${fnv1a(text)}`));
}

/** FNV-1a, 32 bits, of the text's UTF-16 code units, as 8 upper-case hex digits: a short name no other header's guard takes. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).toUpperCase().padStart(8, '0');
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
function verdictComment(regions: readonly Region[], complete: boolean): string[] {
  const over = regions.filter((r) => overBy(r) > 0);
  if (over.length === 0) {
    if (!regions.some((r) => r.sizeLimit !== undefined)) return [];
    return [complete ? ' * fits: every region is within its size limit.' : ' * fits only as far as known: every region is within its size limit with the sizes known.'];
  }
  return [
    ` * DOES NOT FIT: ${over.map((r) => `${comment(r.name)} needs ${usedOf(r)} bytes, ${overBy(r)} over its limit of ${r.sizeLimit} bytes`).join('; ')}.`,
    ` * Including this header stops the build with #error; define ${OVER_LIMIT_WARNING}`,
    ` * before the include (or -D${OVER_LIMIT_WARNING}) to make it a #warning instead.`,
  ];
}

/** The arena region of a TensorFlow Lite Micro plan: its name, heapscope's peak drawn there, the head of the plan written in, and each buffer's offset under it. */
interface RuntimePlacement {
  readonly region: string;
  readonly drawnPeak: number;
  readonly head: number;
  readonly offsetOf: ((b: PlanFile['plan']['buffers'][number]) => number) | undefined; // undefined: not known (an older plan file)
}

/**
 * With TensorFlow Lite Micro, the buffers' offsets the header gives in the
 * arena region: where TFLM puts each buffer with the plan written into the
 * .tflite (which can be the file's own offline plan, not heapscope's placement
 * drawn), so they lie in the arena the header declares. A plan that does not
 * carry them (an older plan file) gives none, unless that plan is the
 * placement drawn.
 */
function runtimePlacement(plan: PlanFile['plan']): RuntimePlacement | undefined {
  const r = plan.runtimePlan;
  const region = plan.regions.find((x) => x.runtimeHead !== undefined);
  if (r === undefined || region === undefined) return undefined;
  const given = r.planned.bufferOffsets;
  const drawn = r.planned.source === 'the plan' && r.planned.head === region.peak;
  const offsetOf = given !== undefined ? (b: { readonly id: number }) => given[b.id]! : drawn ? (b: { readonly offset: number }) => b.offset : undefined;
  return { region: region.name, drawnPeak: region.peak, head: r.planned.head, offsetOf };
}

/**
 * With TensorFlow Lite Micro: the tensor arena to declare (head and tail, as
 * AllocateTensors() needs it) with the plan written into the .tflite, which
 * the offsets below are of, and the arena for the file as it is. A region's
 * ARENA_SIZE is the plan's head alone.
 */
function tflmArenaLines(plan: PlanFile['plan'], drawn: number | undefined, ids: UniqueIds): string[] {
  const r = plan.runtimePlan;
  if (r === undefined) return [];
  const tail = r.planned.arena - r.planned.head;
  const own = r.planned.source === "the file's own offline plan";
  const notDrawn = drawn !== undefined && drawn !== r.planned.head ? ` heapscope's placement drawn (${drawn} bytes) is not what TFLM uses.` : '';
  const apply = own
    ? [` * The offsets below are where TFLM puts each buffer with the file's own offline plan, which the file already carries:`, ` * flash the file as it is.${notDrawn}`]
    : [
        ` * The offsets below are where TFLM puts each buffer with ${comment(r.planned.source)} written into the .tflite: they apply only to`,
        ` * that file (plan --target tflm --save-tflite OUT.tflite, or the page's Export); with the file as it is, TFLM uses`,
        ` * its own offsets in an arena of ${PREFIX}_TFLM_TENSOR_ARENA_AS_IS_BYTES.${notDrawn}`,
      ];
  const file = r.filePlan;
  const overlaps = own && file !== undefined && !file.valid && file.problem !== undefined
    ? [` * That plan gives buffers live at once the same bytes (${comment(file.problem)})${file.insideCustomOp === undefined ? '' : `, all used by custom operator ${comment(file.insideCustomOp)}, which may use them one after another`}: heapscope cannot check it.`]
    : [];
  const lower = unknownKernels(plan).length > 0 ? '; a LOWER ESTIMATE: a kernel\'s scratch requests are not known' : '';
  const estimate = r.tailEstimated ? "; an estimate, resting on the tail's estimated parts" : '';
  return [
    `/* TensorFlow Lite Micro: declare the tensor arena with ${PREFIX}_TFLM_TENSOR_ARENA_BYTES (the head of the plan written into the`,
    ` * .tflite, ${r.planned.head} bytes, and ${tail} bytes of its persistent tail and planning); the region's ARENA_SIZE is that head alone.`,
    ...apply,
    ...overlaps,
    ` * The array must start 16-byte aligned: MicroAllocator::Create aligns its start up to 16 and loses the bytes before,`,
    ` * which these sizes do not hold. For example (C11 or C++11; GCC and Clang also take __attribute__((aligned(16)))):`,
    ` *   alignas(16) static uint8_t tensor_arena[${PREFIX}_TFLM_TENSOR_ARENA_BYTES];`,
    ' */',
    `#define ${ids.take(`${PREFIX}_TFLM_TENSOR_ARENA_BYTES`)} ${r.planned.arena}UL /* with the plan written into the .tflite (--save-tflite)${estimate}${lower} */`,
    `#define ${ids.take(`${PREFIX}_TFLM_TENSOR_ARENA_AS_IS_BYTES`)} ${r.arena}UL /* for the file as it is${estimate}${lower} */`,
    `#define ${ids.take(`${PREFIX}_TFLM_TENSOR_ARENA_ALIGNMENT`)} 16UL /* the alignment the tensor arena array must have (MicroArenaBufferAlignment) */`,
  ];
}

/** What an incomplete plan leaves out, and how to build anyway. */
function incompleteComment(plan: PlanFile['plan']): string[] {
  if (plan.complete) return [];
  const unknown = plan.assumptions?.unknown ?? [];
  const first = unknown[0];
  const which = first === undefined ? 'buffers of unknown size are' : `${unknownCount(unknown)} of unknown size (first ${comment(first.tensor)}: ${comment(first.reason)}) are`;
  const fix = unknown.some((u) => u.scratch === true) ? "give the tensors' shapes or fix the target's scratch rules" : "give the tensors' shapes";
  return [
    ` * INCOMPLETE: ${which} planned as 0 bytes, so the peak and the arena sizes are lower estimates`,
    ` * and those buffers' offsets hold no room for them. Including this header stops the build with`,
    ` * #error; ${fix} and plan again, or define ${ALLOW_INCOMPLETE} to make it a #warning.`,
  ];
}

/** The kernels of a TensorFlow Lite Micro plan whose scratch requests are not known (none assumed); none for any other plan. */
function unknownKernels(plan: PlanFile['plan']): NonNullable<PlanFile['plan']['assumptions']['kernels']> {
  return plan.runtimePlan === undefined ? [] : (plan.assumptions?.kernels ?? []);
}

/** "custom operator X (node)" and how many more: the kernels whose scratch requests are not known. */
function kernelsText(kernels: NonNullable<PlanFile['plan']['assumptions']['kernels']>): string {
  const first = kernels[0]!;
  return `${kernels.length} kernel(s) whose scratch requests are not known (first custom operator ${first.op}, ${first.node})`;
}

/** What a TensorFlow Lite Micro arena that is a lower estimate leaves out, and how to build anyway. */
function lowerArenaComment(plan: PlanFile['plan']): string[] {
  const kernels = unknownKernels(plan);
  if (kernels.length === 0) return [];
  return [
    ` * LOWER ESTIMATE: ${comment(kernelsText(kernels))} are planned with no scratch,`,
    ` * so the arena sizes below (${PREFIX}_TFLM_TENSOR_ARENA_BYTES, ..._AS_IS_BYTES and the region's ARENA_SIZE)`,
    ` * are lower estimates and may be too small: AllocateTensors() can fail, or with an arena a little too small`,
    ` * corrupt memory. Including this header stops the build with #error; check the arena on the device with`,
    ` * that kernel, or define ${ALLOW_INCOMPLETE} to make it a #warning.`,
  ];
}

/** The #error of a TensorFlow Lite Micro arena that is a lower estimate, a #warning instead when ALLOW_INCOMPLETE is defined. */
function lowerArenaDirectives(plan: PlanFile['plan']): string[] {
  const kernels = unknownKernels(plan);
  if (kernels.length === 0) return [];
  const message = `"heapscope: the tensor arena is a lower estimate: ${cString(kernelsText(kernels))} are planned with no scratch"`;
  return [`#ifndef ${ALLOW_INCOMPLETE}`, `#error ${message}`, '#else', `#warning ${message}`, '#endif', ''];
}

/** Why TensorFlow Lite Micro refuses the model (AllocateTensors() fails whatever the arena); none when it accepts it. */
function refusals(plan: PlanFile['plan']): readonly string[] {
  return plan.runtimePlan?.refused ?? [];
}

/** What a model TensorFlow Lite Micro refuses means for the sizes below, and how to build anyway. */
function refusedComment(plan: PlanFile['plan']): string[] {
  const why = refusals(plan);
  if (why.length === 0) return [];
  return [
    ` * REFUSED: ${comment(why[0]!)}${why.length > 1 ? ` (and ${why.length - 1} more)` : ''}.`,
    ` * No tensor arena makes AllocateTensors() succeed; the sizes below are what TFLM would plan were the model accepted.`,
    ` * Including this header stops the build with #error; define ${ALLOW_REFUSED} to make it a #warning.`,
  ];
}

/** The #error of a model TensorFlow Lite Micro refuses, a #warning instead when ALLOW_REFUSED is defined. */
function refusedDirectives(plan: PlanFile['plan']): string[] {
  if (refusals(plan).length === 0) return [];
  const message = `"heapscope: TensorFlow Lite Micro refuses this model; AllocateTensors() fails whatever the arena"`;
  return [`#ifndef ${ALLOW_REFUSED}`, `#error ${message}`, '#else', `#warning ${message}`, '#endif', ''];
}

/** "2 tensor(s)", "1 scratch buffer(s)" or "2 tensor(s) and 1 scratch buffer(s)": the unknown sizes by kind. */
function unknownCount(unknown: readonly { readonly scratch?: true }[]): string {
  const scratch = unknown.filter((u) => u.scratch === true).length;
  const tensors = unknown.length - scratch;
  return [tensors > 0 ? `${tensors} tensor(s)` : '', scratch > 0 ? `${scratch} scratch buffer(s)` : ''].filter((p) => p !== '').join(' and ');
}

/** The #error of an incomplete plan, a #warning instead when ALLOW_INCOMPLETE is defined. */
function incompleteDirectives(plan: PlanFile['plan']): string[] {
  if (plan.complete) return [];
  const unknown = plan.assumptions?.unknown ?? [];
  const message = `"heapscope: the plan is incomplete: ${unknown.length > 0 ? unknownCount(unknown) : 'buffers'} of unknown size planned as 0 bytes"`;
  return [`#ifndef ${ALLOW_INCOMPLETE}`, `#error ${message}`, '#else', `#warning ${message}`, '#endif', ''];
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
  return lastPart(path).replace(/[?#].*$/, '').replace(/\.[A-Za-z0-9]+$/, '');
}

/** A path's last part, the file's own name. */
function lastPart(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
