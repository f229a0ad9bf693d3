// TensorFlow Lite's schema (schema.fbs, file identifier TFL3), as far as the
// planner reads it: field indices of the tables, the tensor types and the
// builtin operator names. Depends on nothing; only src/model/tflite uses it.

/** Field indices (declaration order in schema.fbs) of the tables the decoder reads. */
export const FIELD = {
  model: { version: 0, operatorCodes: 1, subgraphs: 2, description: 3, buffers: 4, metadataBuffer: 5, metadata: 6, signatureDefs: 7 },
  operatorCode: { deprecatedBuiltinCode: 0, customCode: 1, version: 2, builtinCode: 3 },
  subgraph: { tensors: 0, inputs: 1, outputs: 2, operators: 3, name: 4 },
  tensor: { shape: 0, type: 1, buffer: 2, name: 3, quantization: 4, isVariable: 5, sparsity: 6, shapeSignature: 7, hasRank: 8 },
  quantization: { min: 0, max: 1, scale: 2, zeroPoint: 3, detailsType: 4, details: 5, quantizedDimension: 6 },
  operator: { opcodeIndex: 0, inputs: 1, outputs: 2, builtinOptionsType: 3, builtinOptions: 4, customOptions: 5, mutatingVariableInputs: 7, intermediates: 8 },
  buffer: { data: 0, offset: 1, size: 2 },
  metadata: { name: 0, buffer: 1 },
} as const;

/**
 * TensorType names by code, with the ONNX TensorProto.DataType code of the
 * same element type (undefined: no fixed-size element). After BFLOAT16 (18)
 * come the sub-byte INT2 (19) and UINT4 (20), stored packed in a file, and
 * the 8-bit floats FLOAT8_E4M3FN (21) and FLOAT8_E5M2 (22).
 */
export const TENSOR_TYPES: readonly { readonly name: string; readonly onnx: number | undefined }[] = [
  { name: 'FLOAT32', onnx: 1 },
  { name: 'FLOAT16', onnx: 10 },
  { name: 'INT32', onnx: 6 },
  { name: 'UINT8', onnx: 2 },
  { name: 'INT64', onnx: 7 },
  { name: 'STRING', onnx: 8 },
  { name: 'BOOL', onnx: 9 },
  { name: 'INT16', onnx: 5 },
  { name: 'COMPLEX64', onnx: 14 },
  { name: 'INT8', onnx: 3 },
  { name: 'FLOAT64', onnx: 11 },
  { name: 'COMPLEX128', onnx: 15 },
  { name: 'UINT64', onnx: 13 },
  { name: 'RESOURCE', onnx: undefined },
  { name: 'VARIANT', onnx: undefined },
  { name: 'UINT32', onnx: 12 },
  { name: 'UINT16', onnx: 4 },
  { name: 'INT4', onnx: 22 },
  { name: 'BFLOAT16', onnx: 16 },
  { name: 'INT2', onnx: 26 },
  { name: 'UINT4', onnx: 21 },
  { name: 'FLOAT8_E4M3FN', onnx: 17 },
  { name: 'FLOAT8_E5M2', onnx: 19 },
];

/** BuiltinOperator names by code (0 … 205). */
export const BUILTIN_OPERATORS: readonly string[] = (
  'ADD AVERAGE_POOL_2D CONCATENATION CONV_2D DEPTHWISE_CONV_2D DEPTH_TO_SPACE DEQUANTIZE EMBEDDING_LOOKUP FLOOR ' +
  'FULLY_CONNECTED HASHTABLE_LOOKUP L2_NORMALIZATION L2_POOL_2D LOCAL_RESPONSE_NORMALIZATION LOGISTIC LSH_PROJECTION ' +
  'LSTM MAX_POOL_2D MUL RELU RELU_N1_TO_1 RELU6 RESHAPE RESIZE_BILINEAR RNN SOFTMAX SPACE_TO_DEPTH SVDF TANH ' +
  'CONCAT_EMBEDDINGS SKIP_GRAM CALL CUSTOM EMBEDDING_LOOKUP_SPARSE PAD UNIDIRECTIONAL_SEQUENCE_RNN GATHER ' +
  'BATCH_TO_SPACE_ND SPACE_TO_BATCH_ND TRANSPOSE MEAN SUB DIV SQUEEZE UNIDIRECTIONAL_SEQUENCE_LSTM STRIDED_SLICE ' +
  'BIDIRECTIONAL_SEQUENCE_RNN EXP TOPK_V2 SPLIT LOG_SOFTMAX DELEGATE BIDIRECTIONAL_SEQUENCE_LSTM CAST PRELU MAXIMUM ' +
  'ARG_MAX MINIMUM LESS NEG PADV2 GREATER GREATER_EQUAL LESS_EQUAL SELECT SLICE SIN TRANSPOSE_CONV SPARSE_TO_DENSE ' +
  'TILE EXPAND_DIMS EQUAL NOT_EQUAL LOG SUM SQRT RSQRT SHAPE POW ARG_MIN FAKE_QUANT REDUCE_PROD REDUCE_MAX PACK ' +
  'LOGICAL_OR ONE_HOT LOGICAL_AND LOGICAL_NOT UNPACK REDUCE_MIN FLOOR_DIV REDUCE_ANY SQUARE ZEROS_LIKE FILL FLOOR_MOD ' +
  'RANGE RESIZE_NEAREST_NEIGHBOR LEAKY_RELU SQUARED_DIFFERENCE MIRROR_PAD ABS SPLIT_V UNIQUE CEIL REVERSE_V2 ADD_N ' +
  'GATHER_ND COS WHERE RANK ELU REVERSE_SEQUENCE MATRIX_DIAG QUANTIZE MATRIX_SET_DIAG ROUND HARD_SWISH IF WHILE ' +
  'NON_MAX_SUPPRESSION_V4 NON_MAX_SUPPRESSION_V5 SCATTER_ND SELECT_V2 DENSIFY SEGMENT_SUM BATCH_MATMUL ' +
  'PLACEHOLDER_FOR_GREATER_OP_CODES CUMSUM CALL_ONCE BROADCAST_TO RFFT2D CONV_3D IMAG REAL COMPLEX_ABS HASHTABLE ' +
  'HASHTABLE_FIND HASHTABLE_IMPORT HASHTABLE_SIZE REDUCE_ALL CONV_3D_TRANSPOSE VAR_HANDLE READ_VARIABLE ' +
  'ASSIGN_VARIABLE BROADCAST_ARGS RANDOM_STANDARD_NORMAL BUCKETIZE RANDOM_UNIFORM MULTINOMIAL GELU ' +
  'DYNAMIC_UPDATE_SLICE RELU_0_TO_1 UNSORTED_SEGMENT_PROD UNSORTED_SEGMENT_MAX UNSORTED_SEGMENT_SUM ATAN2 ' +
  'UNSORTED_SEGMENT_MIN SIGN BITCAST BITWISE_XOR RIGHT_SHIFT STABLEHLO_LOGISTIC STABLEHLO_ADD STABLEHLO_DIVIDE ' +
  'STABLEHLO_MULTIPLY STABLEHLO_MAXIMUM STABLEHLO_RESHAPE STABLEHLO_CLAMP STABLEHLO_CONCATENATE ' +
  'STABLEHLO_BROADCAST_IN_DIM STABLEHLO_CONVOLUTION STABLEHLO_SLICE STABLEHLO_CUSTOM_CALL STABLEHLO_REDUCE ' +
  'STABLEHLO_ABS STABLEHLO_AND STABLEHLO_COSINE STABLEHLO_EXPONENTIAL STABLEHLO_FLOOR STABLEHLO_LOG STABLEHLO_MINIMUM ' +
  'STABLEHLO_NEGATE STABLEHLO_OR STABLEHLO_POWER STABLEHLO_REMAINDER STABLEHLO_RSQRT STABLEHLO_SELECT ' +
  'STABLEHLO_SUBTRACT STABLEHLO_TANH STABLEHLO_SCATTER STABLEHLO_COMPARE STABLEHLO_CONVERT STABLEHLO_DYNAMIC_SLICE ' +
  'STABLEHLO_DYNAMIC_UPDATE_SLICE STABLEHLO_PAD STABLEHLO_IOTA STABLEHLO_DOT_GENERAL STABLEHLO_REDUCE_WINDOW ' +
  'STABLEHLO_SORT STABLEHLO_WHILE STABLEHLO_GATHER STABLEHLO_TRANSPOSE DILATE STABLEHLO_RNG_BIT_GENERATOR ' +
  'REDUCE_WINDOW ' +
  ''
)
  .trim()
  .split(' ');

/** BuiltinOperator codes the decoder treats specially. */
export const OP = {
  CUSTOM: 32,
  PLACEHOLDER_FOR_GREATER_OP_CODES: 127,
} as const;

/** The name of a builtin operator code; unknown codes keep their number. */
export function builtinName(code: number): string {
  return BUILTIN_OPERATORS[code] ?? `BUILTIN_${code}`;
}
