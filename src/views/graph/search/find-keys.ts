// Which key presses open the graph's Find rather than the tensor filter's "/"
// or the browser's own find: pure, so the rule is tested apart from the DOM.

/** Where a key press happened: the key, and where keyboard focus and the pointer are. */
export interface FindKeyPress {
  readonly key: string;
  readonly ctrl: boolean;
  readonly meta: boolean;
  readonly alt: boolean;
  readonly typing: boolean; // the key went to a text field, select or editable element
  readonly focus: 'graph' | 'other-find' | 'elsewhere'; // the pane holding focus: the graph's, another with a find of its own (the tensors), or none of them
  readonly pointerOverGraph: boolean;
}

/**
 * True when the press opens the graph's Find: "/" (not typed in a field) or
 * Ctrl+F (⌘F). Focus decides first: inside the graph pane it opens the graph's
 * Find wherever the pointer is, inside another pane with a find of its own it
 * leaves the key to that pane (the tensor filter's "/", the browser's find);
 * elsewhere the pointer over the graph decides, as a mouse user expects.
 */
export function opensGraphFind(press: FindKeyPress): boolean {
  const find = (press.ctrl || press.meta) && !press.alt && press.key.toLowerCase() === 'f';
  const slash = press.key === '/' && !press.ctrl && !press.meta && !press.typing;
  if (!find && !slash) return false;
  if (press.focus === 'graph') return true;
  if (press.focus === 'other-find') return false;
  return press.pointerOverGraph;
}
