// Characters XML 1.0 does not allow (C0 controls other than tab, newline and
// carriage return; lone surrogates; U+FFFE and U+FFFF) cannot appear in an SVG
// even as character references, so names holding them are shown with U+FFFD;
// and the escaping every SVG export writes its text with.

/** Every character XML 1.0 forbids (matched on UTF-16 code units); matching controls is the point here. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with each character XML 1.0 forbids replaced by U+FFFD, so a document holding it stays well-formed. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML, '\ufffd');
}

/** Escapes text for XML content and attribute values (forbidden characters shown as U+FFFD). */
export function escapeXml(text: string): string {
  return xmlChars(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
