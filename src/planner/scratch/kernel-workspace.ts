// Kernel workspace a plan does not count: the temporary buffers ONNX Runtime's
// CPU kernels of the fused attention ops allocate while they run, estimated
// from the op's shapes and attributes, for the ops the target has no scratch
// rule for (the `cpu` preset has none). Depends only on the model's IR types and shared/.
//
// The sizes are read off onnxruntime's CPU kernels (contrib_ops/cpu/bert):
// - attention_cpu_base.h, AttentionCPUBase::ApplyAttention: the mask merged
//   with the causal mask, B × S × T of T_c when there is a mask input or the
//   op is unidirectional with S > 1; the attention probabilities,
//   B × N × S × T of T_c; the output before its transpose, B × N × S × H_v of
//   T_c (= B × S × D_v). All three live together while the op runs.
// - attention.cc, Attention<T>::Compute: before ApplyAttention, the Q/K/V
//   projection gemm_data, B × S × (D + D + D_v) of T_c, live to the end.
// - multihead_attention.cc, MultiHeadAttention<T>::Compute: ApplyAttention,
//   after copies of Q, K and V into B × N × S × H (MaybeTransposeToBNSHAndAddBias,
//   not counted: whether it copies depends on the layout and bias); a float
//   op with no mask, bias, past or present takes MlasFlashAttention instead,
//   whose buffer depends on the thread count and L2 cache: unknown.
// - gqa_attention_base.h, GQAAttentionBase::ApplyAttention: the attention
//   probabilities, B × N × S × T of T_c with T the present key's length
//   (rotary and packed-QKV copies in group_query_attention.cc not counted).
// B batch, S query length, T total key length (past + new), N num_heads,
// H_v value head size, D hidden size, T_c the query's element type.

import type { InferredNode, InferredValue } from '../../model/inferred';
import { formatBytesExact, formatCount } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { PlanDiagnostic } from '../problem/build-buffers';

/** The workspace one attention node's kernel allocates, or why it is not known. */
export interface KernelWorkspace {
  readonly node: string;
  readonly opType: string; // as scratch rules name it: `com.microsoft::Attention`
  readonly bytes: number | undefined; // undefined: not known from the shapes
  readonly lowerEstimate: boolean; // some of the kernel's buffers are not counted: it allocates at least `bytes`
  readonly parts: string; // what `bytes` counts, in words
  readonly reason?: string; // why `bytes` is unknown
}

const MS = 'com.microsoft';
/** The fused attention ops whose CPU kernel workspace is estimated. */
export const ATTENTION_OPS: readonly string[] = ['Attention', 'MultiHeadAttention', 'GroupQueryAttention'];

type Shape = readonly number[];

/** The workspace ONNX Runtime's CPU kernel allocates for `node`, or undefined for an op it does not estimate. */
export function kernelWorkspace(node: InferredNode, values: ReadonlyMap<string, InferredValue>): KernelWorkspace | undefined {
  if (node.domain !== MS || !ATTENTION_OPS.includes(node.opType)) return undefined;
  const value = (name: string | undefined) => (name === undefined || name === '' ? undefined : values.get(name));
  const input = (k: number) => value(node.inputs[k]);
  const output = (k: number) => value(node.outputs[k]);
  const base = { node: node.name, opType: `${MS}::${node.opType}` };
  const unknown = (reason: string): KernelWorkspace => ({ ...base, bytes: undefined, lowerEstimate: false, parts: 'attention probabilities', reason });
  const query = input(0);
  const heads = numberAttr(node, 'num_heads');
  const elem = elementBytes(query);
  if (query?.shape === undefined || query.shape.length < 3 || elem === undefined) return unknown('the shape of its query input is unknown');
  if (heads === undefined || heads <= 0) return unknown('it has no num_heads');
  const [b, s] = [query.shape[0]!, query.shape[1]!];
  const causal = numberAttr(node, 'unidirectional') === 1 && s > 1;
  if (node.opType === 'GroupQueryAttention') {
    const t = output(1)?.shape?.[2];
    if (t === undefined) return unknown('the length of its present key is unknown');
    return { ...base, bytes: b * heads * s * t * elem, lowerEstimate: true, parts: 'batch × heads × S × T attention probabilities' };
  }
  // the past and present share one buffer of the longest length, and the kernel reads only the past length its input
  // past_sequence_length gives at run time: T is not known from the shapes
  if (node.opType === 'Attention' && (numberAttr(node, 'past_present_share_buffer') ?? 0) !== 0) return unknown('its past and present share a buffer, and the past length it reads is a run-time input (past_sequence_length)');
  const outBytes = output(0)?.bytes;
  const t = node.opType === 'Attention' ? attentionTotal(s, input(4)?.shape, output(1)?.shape) : mhaTotal(input(1)?.shape, input(6)?.shape, output(1)?.shape);
  if (t === undefined) return unknown('its total key length is unknown');
  if (outBytes === undefined) return unknown('the size of its output is unknown');
  const masked = causal || (node.opType === 'Attention' ? input(3) : input(4)) !== undefined;
  const mask = masked ? b * s * t * elem : 0;
  const probs = b * heads * s * t * elem;
  if (node.opType === 'MultiHeadAttention') {
    // MultiHeadAttention<T>::Compute's condition for MlasFlashAttention (with the cache size known: it is, on a host)
    const flash = elem === 4 && numberAttr(node, 'unidirectional') !== 1 && [4, 5, 6, 7].every((k) => input(k) === undefined) && node.outputs.slice(1).every((o) => o === '');
    if (flash) return unknown("ONNX Runtime's CPU kernel takes its flash-attention path, whose buffer depends on the thread count and cache size");
    return { ...base, bytes: mask + probs + outBytes, lowerEstimate: true, parts: `batch × heads × S × T attention probabilities${masked ? ', the mask' : ''} and the output before its transpose` };
  }
  const qkv = input(1)?.shape?.[1];
  if (qkv === undefined) return unknown('the shape of its weights is unknown');
  return { ...base, bytes: b * s * qkv * elem + mask + probs + outBytes, lowerEstimate: false, parts: `the Q/K/V projection, batch × heads × S × T attention probabilities${masked ? ', the mask' : ''} and the output before its transpose` };
}

/** Attention's T: the present's length (2, B, N, T, H), else past + S. */
function attentionTotal(s: number, past: Shape | undefined, present: Shape | undefined): number | undefined {
  if (present?.length === 5) return present[3];
  return past === undefined ? s : past.length === 5 ? past[3]! + s : undefined;
}

/** MultiHeadAttention's T: the present key's length (B, N, T, H), else the key's (B, L, D) or (B, N, L, H), plus the past's. */
function mhaTotal(key: Shape | undefined, past: Shape | undefined, present: Shape | undefined): number | undefined {
  if (present?.length === 4) return present[2];
  const l = key?.length === 3 ? key[1] : key?.length === 4 ? key[2] : undefined;
  if (l === undefined) return undefined;
  return past === undefined ? l : past.length === 4 ? past[2]! + l : undefined;
}

function numberAttr(node: InferredNode, name: string): number | undefined {
  const a = node.attributes?.[name];
  return typeof a === 'number' ? a : undefined;
}

function elementBytes(value: InferredValue | undefined): number | undefined {
  if (value?.shape === undefined || value.bytes === undefined) return undefined;
  const numel = value.shape.reduce((a, b) => a * b, 1);
  return numel === 0 ? undefined : value.bytes / numel;
}

/** The kernel workspace of `nodes` no scratch rule of the target plans (`ruleOps`: the op types its rules name), largest first. */
export function uncountedWorkspace(nodes: readonly InferredNode[], values: ReadonlyMap<string, InferredValue>, ruleOps: ReadonlySet<string>): KernelWorkspace[] {
  const found = nodes.flatMap((n) => {
    const w = kernelWorkspace(n, values);
    return w === undefined || ruleOps.has(w.opType) ? [] : [w];
  });
  return found.sort((a, b) => (b.bytes ?? -1) - (a.bytes ?? -1));
}

/** The diagnostic code of kernel workspace a plan does not count. */
export const WORKSPACE_NOT_COUNTED = 'kernel-workspace';

/**
 * One diagnostic per op type of `uncounted` (largest first), naming how many
 * operators, the estimate of the largest and what it counts, or that it is
 * unknown: never 0.
 */
export function workspaceDiagnostics(uncounted: readonly KernelWorkspace[]): PlanDiagnostic[] {
  const byOp = new Map<string, KernelWorkspace[]>();
  for (const w of uncounted) byOp.set(w.opType, [...(byOp.get(w.opType) ?? []), w]);
  return [...byOp].map(([opType, list]) => ({ code: WORKSPACE_NOT_COUNTED, message: workspaceText(opType, list), node: list[0]!.node }));
}

/** The sentence of `list`, every uncounted node of one op type, largest first. */
export function workspaceText(opType: string, list: readonly KernelWorkspace[]): string {
  const largest = list[0]!;
  const op = opType.replace(/^com\.microsoft::/, '');
  const ops = list.length === 1 ? `1 ${op} operator` : `${formatCount(list.length)} ${op} operators`;
  const unknown = list.filter((w) => w.bytes === undefined).length; // listed after every size known
  const size =
    largest.bytes === undefined
      ? `workspace of unknown size for '${shortName(largest.node)}' (${largest.reason ?? 'not known from its shapes'})`
      : `${largest.lowerEstimate ? 'at least' : 'about'} ${formatBytesExact(largest.bytes)} for ${list.length === 1 ? '' : unknown > 0 ? 'the largest known, ' : 'the largest, '}'${shortName(largest.node)}' (${largest.parts}${largest.lowerEstimate ? '; other copies not counted' : ''})${unknown > 0 ? ` and workspace of unknown size for ${formatCount(unknown)} more` : ''}`;
  return `kernel workspace not counted: ${ops} (${shortName(opType)}); ONNX Runtime's CPU kernel allocates ${size}, not in this plan — add a scratch rule for ${shortName(opType)} to the target to plan it`;
}
