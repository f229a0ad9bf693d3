// The words a graph input's value may be typed in besides numbers: true and
// false for a bool (ONNX stores a bool as 1 or 0). Shared by the CLI's
// --input and the page's value fields, so both read the same text alike.

/** 1 for `true`, 0 for `false` (any case), undefined for any other text. */
export function booleanWord(text: string): 0 | 1 | undefined {
  const word = text.trim().toLowerCase();
  return word === 'true' ? 1 : word === 'false' ? 0 : undefined;
}

/** A bool's value as it is typed: `true` or `false`. */
export function booleanText(value: number): string {
  return value === 0 ? 'false' : 'true';
}
