// UTF-8 bytes to text for every model format, with the TextDecoder every
// runtime here has (the core tsconfig has no DOM types). No dependencies.

/** Minimal view of the TextDecoder every runtime here has (the core tsconfig has no DOM types). */
interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}

let decoder: Utf8Decoder | undefined;

/** Decodes UTF-8 bytes (a `bytes` field holding text); invalid sequences become U+FFFD. */
export function utf8(bytes: Uint8Array | null | undefined): string {
  if (bytes === null || bytes === undefined || bytes.length === 0) return '';
  decoder ??= new (globalThis as unknown as { TextDecoder: new () => Utf8Decoder }).TextDecoder();
  return decoder.decode(bytes);
}
