// Element sizes of the data types a compute unit may store activations in,
// by the names the model layer gives them ('float32', 'int8', ...). The
// planner sees only IR types from src/model, so it keeps its own small table.
// No dependencies.

interface DtypeFacts {
  readonly code: number; // ONNX TensorProto.DataType
  readonly bits: number;
  readonly float: boolean;
}

const DTYPES: Readonly<Record<string, DtypeFacts>> = {
  float32: { code: 1, bits: 32, float: true },
  uint8: { code: 2, bits: 8, float: false },
  int8: { code: 3, bits: 8, float: false },
  uint16: { code: 4, bits: 16, float: false },
  int16: { code: 5, bits: 16, float: false },
  int32: { code: 6, bits: 32, float: false },
  int64: { code: 7, bits: 64, float: false },
  bool: { code: 9, bits: 8, float: false },
  float16: { code: 10, bits: 16, float: true },
  float64: { code: 11, bits: 64, float: true },
  uint32: { code: 12, bits: 32, float: false },
  uint64: { code: 13, bits: 64, float: false },
  bfloat16: { code: 16, bits: 16, float: true },
  float8e4m3fn: { code: 17, bits: 8, float: true },
  float8e4m3fnuz: { code: 18, bits: 8, float: true },
  float8e5m2: { code: 19, bits: 8, float: true },
  float8e5m2fnuz: { code: 20, bits: 8, float: true },
  uint4: { code: 21, bits: 4, float: false },
  int4: { code: 22, bits: 4, float: false },
};

/** Every type name the table knows, in ONNX code order. */
export const DTYPE_NAMES: readonly string[] = Object.keys(DTYPES);

/** Bits per element of a named type; undefined for names the table does not know. */
export function dtypeBits(name: string): number | undefined {
  return DTYPES[name]?.bits;
}

/** The ONNX code of a named type; undefined when unknown. */
export function dtypeCode(name: string): number | undefined {
  return DTYPES[name]?.code;
}

/** True for floating-point types: the ones a unit's activation type replaces. */
export function isFloatDtype(name: string): boolean {
  return DTYPES[name]?.float === true;
}

/** True for the integer types a quantized unit computes in (int4 .. int32, unsigned too). */
export function isQuantizedDtype(name: string): boolean {
  const facts = DTYPES[name];
  return facts !== undefined && !facts.float && name !== 'bool' && facts.bits <= 32;
}

/** Bytes of `elements` elements of `bits` each; sub-byte types are packed and rounded up. */
export function bytesOf(elements: number, bits: number): number {
  return Math.ceil((elements * bits) / 8);
}

/** True when the unit computes on quantized data. */
export function computesQuantized(unit: { readonly dtype: { readonly activations: string; readonly fakeQuantization: boolean } }): boolean {
  return isQuantizedDtype(unit.dtype.activations) || unit.dtype.fakeQuantization;
}
