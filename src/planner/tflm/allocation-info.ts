// The buffers TensorFlow Lite Micro plans in the non-persistent ("head")
// section of its arena, with the lifetimes its allocator derives
// (micro_allocation_info.cc). Depends only on the model's IR types.
//
// - A tensor is planned when it has no buffer data, is not a variable (unless
//   an offline plan gives it an offset) and its size is not 0. Sizes are the
//   elements × TfLiteTypeSizeOf (int4 counts a byte per element), rounded up
//   to 16 bytes (MicroArenaBufferAlignment) before they reach the planner.
// - Time 0: subgraph 0's inputs are created. Each operator takes the next
//   time; its outputs are created then; an IF, WHILE or CALL_ONCE then takes
//   one more time per subgraph it runs and walks that subgraph in place; the
//   operator's inputs and outputs are last used at the time it ends. A
//   subgraph's outputs live to its end. A tensor never referenced keeps
//   (-1, -1) and is still planned (it then meets only other such tensors).
// - No operator works in place: a RESHAPE's output is a buffer of its own.
// - Kernel scratch requests (scratch-requests.ts) live from their operator's
//   time to its end.
// - Offline offsets are read as TFLM's code reads them: a tensor's offset is
//   the entry at its index in its own subgraph, the same list for every
//   subgraph (AllocationInfoBuilder::InitializeAllocationInfo takes
//   offline_offsets[i] for each subgraph's tensor i, and AllocateVariables,
//   in releases where it is given the plan, indexes it the same way), though
//   the list holds an entry per tensor of every subgraph
//   (GetOfflinePlannedOffsets). TFLM's documentation (memory_management.md)
//   lays the list out concatenated over the subgraphs, which the code does not
//   follow; OFFLINE_LAYOUT_ASSUMPTION says which is followed.

import { InputError } from '../../shared/errors';
import { formatCount } from '../../shared/format';
import type { IrTflite, IrTfliteSubgraph, IrTfliteTensor } from '../../model/ir-tflite';
import type { KernelAssumption } from '../assembly/assumptions';
import { scratchRequests, type TflmScratchRequest } from './scratch-requests';

/** TFLM's arena alignment (MicroArenaBufferAlignment). */
export const TFLM_ALIGNMENT = 16;

/** Operators past which the walk of nested subgraphs stops (a subgraph run from many places is walked each time, as TFLM does). */
const MAX_WALKED_OPERATORS = 2_000_000;

/** Nesting of subgraph calls past which the model is refused (TFLM recurses once per level). */
const MAX_CALL_DEPTH = 256;

/**
 * TfLiteTypeSizeOf (memory_helpers.cc), by TensorType name, as current TFLM
 * has it; types it returns an error for (STRING, VARIANT, INT2, UINT4) are
 * absent. INT4 is a byte per element there: the arena holds int4 tensors
 * unpacked.
 */
const TYPE_SIZE: Readonly<Record<string, number>> = {
  FLOAT32: 4, FLOAT16: 2, FLOAT64: 8, INT16: 2, INT32: 4, UINT32: 4, UINT16: 2, UINT8: 1, INT8: 1,
  INT64: 8, UINT64: 8, BOOL: 1, RESOURCE: 4, COMPLEX64: 8, COMPLEX128: 16, INT4: 1, BFLOAT16: 2,
  FLOAT8_E4M3FN: 1, FLOAT8_E5M2: 1,
};

/** Types current TFLM sizes (2 B each) that releases before late 2024 do not: their TfLiteTypeSizeOf returns an error (UINT16 came with tflite-micro PR #2693). */
const NEWER_TYPES: readonly string[] = ['UINT16', 'BFLOAT16'];

/**
 * The 8-bit float types current TFLM sizes (1 B each) through
 * TfLiteTypeGetSize; releases whose TfLiteTypeSizeOf names each type it
 * sizes, UINT16 and BFLOAT16 among them, have no case for these.
 */
const FLOAT8_TYPES: readonly string[] = ['FLOAT8_E4M3FN', 'FLOAT8_E5M2'];

/**
 * What the sizes rest on when the model has a tensor of a type only current
 * TFLM sizes, a line per group; none when it has none. InitializeAllocationInfo
 * sizes every tensor, weights included, so an older release fails
 * AllocateTensors() on it.
 */
export function typeSizeAssumptions(model: IrTflite): string[] {
  const has = (types: readonly string[]) => types.filter((type) => model.subgraphs.some((sg) => sg.tensors.some((t) => t.type === type)));
  const those = (found: readonly string[]) => (found.length === 1 ? 'that type' : 'those types');
  const newer = has(NEWER_TYPES);
  const float8 = has(FLOAT8_TYPES);
  return [
    ...(newer.length === 0 ? [] : [`its ${newer.join(' and ')} tensors are sized as current TensorFlow Lite Micro sizes them, 2 B per element (TfLiteTypeSizeOf); releases before late 2024 (UINT16 came with tflite-micro PR #2693) cannot size ${those(newer)} and refuse the model: AllocateTensors() fails whatever the arena`]),
    ...(float8.length === 0 ? [] : [`its ${float8.join(' and ')} tensors are sized as current TensorFlow Lite Micro sizes them, 1 B per element (TfLiteTypeSizeOf, through TfLiteTypeGetSize); older releases, whose TfLiteTypeSizeOf names each type it sizes, cannot size ${those(float8)} and refuse the model: AllocateTensors() fails whatever the arena`]),
  ];
}

/**
 * Sub-byte types TFLM converts from the file but cannot size: its
 * TfLiteTypeSizeOf special-cases INT4 alone and takes the rest from
 * TfLiteTypeGetSize, which is 0 for these (2 and 4 bits), so it returns an
 * error and AllocateTensors() fails; older releases' switch has no case for
 * them either. The figures of such a refused model give them a byte per
 * element, as TFLM gives INT4, and the refusal says so.
 */
const UNSIZED_SUB_BYTE: Readonly<Record<string, number>> = { INT2: 2, UINT4: 4 };

/** Which reading of a file's offline plan the figures follow, where TFLM's code and its documentation differ (a model of several subgraphs). */
export const OFFLINE_LAYOUT_ASSUMPTION =
  "the file's offline plan is read as TensorFlow Lite Micro's code reads it (AllocationInfoBuilder::InitializeAllocationInfo, micro_allocation_info.cc): every subgraph's tensor i takes entry i of the list, the same entries for each subgraph; its documentation (memory_management.md) lays the list out concatenated over the subgraphs instead, which the code does not follow: a plan written to that layout places the other subgraphs' tensors elsewhere than it meant";

/** One buffer TFLM's planner is given, in the order it is added (its id). */
export interface TflmBuffer {
  readonly kind: 'tensor' | 'scratch';
  readonly subgraph: number;
  readonly tensor: number | undefined; // index in its subgraph (tensors only)
  readonly name: string; // the IR value name (prefixed by its subgraph beyond the first) or '<node>:scratch<k>'
  readonly node: string | undefined; // the producing or requesting operator
  readonly role: 'input' | 'output' | 'activation' | 'scratch';
  readonly bytes: number;
  readonly size: number; // bytes rounded up to 16, as the planner sees them
  readonly first: number; // first_created (inclusive time); -1 when never referenced
  readonly last: number; // last_used (inclusive time)
  readonly offlineOffset: number | undefined; // from the file's offline plan
}

/** A variable tensor: its buffer lives in the persistent section. */
export interface TflmVariable {
  readonly name: string;
  readonly bytes: number;
}

/** The operator that runs at each time (time 0: the graph inputs arrive, before the first operator). */
export interface TflmTime {
  readonly node: string;
  readonly op: string;
}

/** What TFLM's allocator knows before it plans. */
export interface TflmAllocation {
  readonly buffers: readonly TflmBuffer[]; // planned buffers, in planner id order
  readonly times: readonly TflmTime[]; // by time, from 1 (index 0 is time 1)
  readonly variables: readonly TflmVariable[]; // persistent, in allocation order
  readonly tensorCount: number; // over all subgraphs
  readonly scratchCount: number;
  readonly notes: readonly string[]; // assumptions: kernels whose requests are not known
  readonly unknownKernels: readonly KernelAssumption[]; // the same kernels, by node
  readonly refusals: readonly string[]; // what makes TFLM refuse the model when it allocates (ValidateSubgraph)
}

interface Info {
  first: number;
  last: number;
}

/** The allocation of a model as TFLM derives it; `offsets` replaces the file's offline plan when given. */
export function tflmAllocation(model: IrTflite, offsets: readonly number[] | undefined = model.offlinePlan?.offsets): TflmAllocation {
  const infos = model.subgraphs.map((sg) => sg.tensors.map((): Info => ({ first: -1, last: -1 })));
  const requests = model.subgraphs.flatMap((sg, s) => sg.operators.flatMap((op, i) => scratchRequests(sg, op).requests.map((r) => ({ ...r, subgraph: s, operator: i }))));
  const scratchInfo = requests.map((): Info => ({ first: -1, last: -1 }));
  const times: TflmTime[] = [];
  new LifetimeWalk(model, infos, requests, scratchInfo, times).run();
  const buffers: TflmBuffer[] = [];
  const variables: TflmVariable[] = [];
  model.subgraphs.forEach((sg, s) => {
    const producers = producerNames(sg);
    sg.tensors.forEach((t, i) => {
      const bytes = tensorBytes(t, s, i);
      const written = offsets?.[i]; // entry i for tensor i of every subgraph, as InitializeAllocationInfo reads it
      const offline = written !== undefined && written >= 0 ? written : undefined;
      if (t.constant || bytes === 0) return;
      if (t.variable && offline === undefined) {
        variables.push({ name: valueName(s, t), bytes });
        return;
      }
      const info = infos[s]![i]!;
      buffers.push({
        kind: 'tensor', subgraph: s, tensor: i, name: valueName(s, t), node: producers.get(i),
        role: s === 0 && sg.inputs.includes(i) ? 'input' : s === 0 && sg.outputs.includes(i) ? 'output' : 'activation',
        bytes, size: alignUp(bytes), first: info.first, last: info.last, offlineOffset: offline,
      });
    });
  });
  requests.forEach((r, k) => {
    const info = scratchInfo[k]!;
    buffers.push({
      kind: 'scratch', subgraph: r.subgraph, tensor: undefined, name: `${r.node}:${r.label}`, node: r.node, role: 'scratch',
      bytes: r.bytes, size: alignUp(r.bytes), first: info.first, last: info.last, offlineOffset: undefined,
    });
  });
  const unknownKernels = model.subgraphs.flatMap((sg) =>
    sg.operators.filter((op) => op.custom).flatMap((op) => {
      const note = scratchRequests(sg, op).note;
      return note === undefined ? [] : [{ node: op.node, op: op.op, reason: note }];
    }),
  );
  return {
    buffers, times, variables, notes: unknownKernels.map((k) => k.reason), unknownKernels, refusals: refusals(model),
    tensorCount: model.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0),
    scratchCount: requests.length,
  };
}

/**
 * What makes AllocateTensors fail: TFLM's ValidateSubgraph
 * (micro_allocation_info.cc), "Does not support intermediate tensor with
 * non-zero size" when an operator lists an intermediate tensor that holds any
 * byte; and a reference kernel's Prepare refusing its tensors' types
 * (kernelRefusals).
 */
function refusals(model: IrTflite): string[] {
  return [...typeRefusals(model), ...intermediateRefusals(model), ...kernelRefusals(model)];
}

/** TfLiteTypeSizeOf's refusal of INT2 and UINT4 tensors (UNSIZED_SUB_BYTE), one line per type. */
function typeRefusals(model: IrTflite): string[] {
  return Object.entries(UNSIZED_SUB_BYTE).flatMap(([type, bits]) => {
    const found = model.subgraphs.flatMap((sg, s) => sg.tensors.filter((t) => t.type === type).map((t) => valueName(s, t)));
    if (found.length === 0) return [];
    const which = found.length === 1 ? `the ${type} tensor '${found[0]}'` : `${formatCount(found.length)} ${type} tensors (first '${found[0]}')`;
    return [
      `TensorFlow Lite Micro refuses this model: it cannot size ${which}, as its TfLiteTypeSizeOf sizes INT4 alone of the sub-byte types (TfLiteTypeGetSize is 0 for ${bits} bits), so AllocateTensors() fails; the figures give ${found.length === 1 ? 'it' : 'them'} a byte per element, as TFLM gives INT4`,
    ];
  });
}

/** DEQUANTIZE's reference Prepare (dequantize_common.cc): the input types it takes; UINT8 only in newer releases, counted as taken. */
const DEQUANTIZE_INPUTS: ReadonlySet<string> = new Set(['INT8', 'INT16', 'UINT8']);

/**
 * Reference kernels whose Prepare refuses the types a model gives them, one
 * line per operator type and tensor type (a model can have a hundred alike):
 * DequantizePrepare ensures an int8 or int16 input (uint8 too in newer
 * releases) and a float32 output.
 */
function kernelRefusals(model: IrTflite): string[] {
  const found = new Map<string, { count: number; first: string }>();
  model.subgraphs.forEach((sg, s) => {
    for (const op of sg.operators) {
      if (op.custom || op.op !== 'DEQUANTIZE') continue;
      const input = op.inputs[0] === undefined || op.inputs[0] < 0 ? undefined : sg.tensors[op.inputs[0]];
      const output = op.outputs[0] === undefined || op.outputs[0] < 0 ? undefined : sg.tensors[op.outputs[0]];
      const bad = input !== undefined && !DEQUANTIZE_INPUTS.has(input.type) ? { role: 'input', t: input } : output !== undefined && output.type !== 'FLOAT32' ? { role: 'output', t: output } : undefined;
      if (bad === undefined) continue;
      const key = `${bad.role} ${bad.t.type}`;
      const seen = found.get(key);
      if (seen !== undefined) seen.count += 1;
      else found.set(key, { count: 1, first: `${op.node}, ${bad.role === 'input' ? 'reading' : 'writing'} '${valueName(s, bad.t)}'` });
    }
  });
  return [...found].map(([key, { count, first }]) => {
    const [role, type] = key.split(' ') as [string, string];
    const takes = role === 'input' ? 'an INT8 or INT16 input, UINT8 too in newer releases' : 'a FLOAT32 output';
    const ops = count === 1 ? `a DEQUANTIZE has a ${type} ${role}` : `${formatCount(count)} DEQUANTIZE operators have a ${type} ${role}`;
    return `TensorFlow Lite Micro's reference kernels refuse this model: ${ops} (first ${first}); DEQUANTIZE's Prepare (DequantizePrepare) takes only ${takes}, so AllocateTensors() fails`;
  });
}

/** ValidateSubgraph's refusal of intermediates that hold bytes. */
function intermediateRefusals(model: IrTflite): string[] {
  return model.subgraphs.flatMap((sg, s) =>
    sg.operators.flatMap((op) =>
      op.intermediates.flatMap((i) => {
        const t = sg.tensors[i];
        const bytes = t === undefined ? 0 : tensorBytes(t, s, i);
        return bytes > 0 ? [`TensorFlow Lite Micro refuses this model: ${op.op} ${op.node} lists the intermediate tensor '${valueName(s, t!)}' of ${formatCount(bytes)} B, and it accepts only empty intermediates ("Does not support intermediate tensor with non-zero size")`] : [];
      }),
    ),
  );
}

/** The name a tensor has in the plan: its value name, prefixed by its subgraph beyond the first. */
export function valueName(subgraph: number, t: IrTfliteTensor): string {
  return subgraph === 0 ? t.value : `subgraph${subgraph}/${t.value}`;
}

/**
 * Bytes TFLM allocates for a tensor; throws for a type it cannot size. A
 * constant too: InitializeAllocationInfo sizes every tensor of every subgraph
 * (TfLiteEvalTensorByteLength), weights included, and AllocateTensors fails
 * on a type TfLiteTypeSizeOf does not know (a STRING). INT2 and UINT4 get a
 * byte per element instead, for the figures of a model refused for them
 * (typeRefusals).
 */
export function tensorBytes(t: IrTfliteTensor, subgraph: number, index: number): number {
  const size = TYPE_SIZE[t.type] ?? (UNSIZED_SUB_BYTE[t.type] === undefined ? undefined : 1);
  if (size === undefined) {
    const what = t.constant ? 'a constant' : 'a tensor';
    throw new InputError(
      'bad-graph',
      `tensor ${index} of subgraph ${subgraph} ('${t.value}') is ${what} of type ${t.type}, which TensorFlow Lite Micro cannot size: AllocateTensors() fails on it (TfLiteEvalTensorByteLength, for every tensor, weights included)`,
    );
  }
  return t.shape.reduce((a, d) => a * d, 1) * size;
}

function alignUp(bytes: number): number {
  return Math.ceil(bytes / TFLM_ALIGNMENT) * TFLM_ALIGNMENT;
}

/** The operator that writes each tensor (the first, should several). */
function producerNames(sg: IrTfliteSubgraph): Map<number, string> {
  const names = new Map<number, string>();
  for (const op of sg.operators) for (const t of op.outputs) if (!names.has(t)) names.set(t, op.node);
  return names;
}

type Request = TflmScratchRequest & { readonly subgraph: number; readonly operator: number };

/** MarkAllocationLifetimes, from subgraph 0, walking called subgraphs where they run. */
class LifetimeWalk {
  private scope = 0;
  private walked = 0;

  constructor(
    private readonly model: IrTflite,
    private readonly infos: Info[][],
    private readonly requests: readonly Request[],
    private readonly scratch: Info[],
    private readonly times: TflmTime[],
  ) {}

  run(): void {
    this.mark(0, 0);
  }

  private mark(s: number, depth: number): void {
    if (depth > MAX_CALL_DEPTH) {
      throw new InputError('bad-graph', `the subgraphs run one another more than ${MAX_CALL_DEPTH} levels deep`);
    }
    const sg = this.model.subgraphs[s]!;
    const info = this.infos[s]!;
    for (const t of sg.inputs) {
      created(info[t]!, this.scope);
      info[t]!.last = this.scope;
    }
    sg.operators.forEach((op, i) => {
      if (++this.walked > MAX_WALKED_OPERATORS) {
        throw new InputError('bad-graph', `the subgraphs run one another more than ${MAX_WALKED_OPERATORS.toLocaleString('en-US')} operators deep; TensorFlow Lite Micro would take as long to plan them`);
      }
      this.scope += 1;
      this.times.push({ node: op.node, op: op.op });
      for (const t of op.outputs) if (t >= 0) created(info[t]!, this.scope);
      const start = this.scope;
      for (const called of runtimeCalls(op.op, op.calls)) {
        this.scope += 1;
        this.times.push({ node: op.node, op: op.op });
        this.mark(called, depth + 1);
      }
      for (const t of op.inputs) if (t >= 0) info[t]!.last = this.scope;
      for (const t of op.outputs) if (t >= 0) info[t]!.last = this.scope;
      this.requests.forEach((r, k) => {
        if (r.subgraph !== s || r.operator !== i) return;
        created(this.scratch[k]!, start);
        this.scratch[k]!.last = this.scope;
      });
    });
    for (const t of sg.outputs) {
      created(info[t]!, this.scope);
      info[t]!.last = this.scope;
    }
  }
}

/** The subgraphs TFLM's allocator walks for an operator: IF, WHILE and CALL_ONCE only. */
function runtimeCalls(op: string, calls: readonly number[]): readonly number[] {
  return op === 'IF' || op === 'WHILE' || op === 'CALL_ONCE' ? calls : [];
}

function created(info: Info, time: number): void {
  if (info.first === -1) info.first = time;
}
