// Locates the first error in text that is not valid JSON, so a bad target
// profile is reported at a line and column on every JavaScript engine (their
// own JSON.parse messages differ and do not always give a position). A strict
// RFC 8259 scanner, run only after JSON.parse has failed. No dependencies.

/** Where JSON text goes wrong and why. */
export interface JsonError {
  readonly position: number; // index of the offending character (text.length at the end)
  readonly line: number; // 1-based
  readonly column: number; // 1-based
  readonly reason: string;
}

class Stop extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The first error of `text` as JSON, or undefined when it is valid. */
export function jsonErrorAt(text: string): JsonError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.position);
    const line = before.split('\n').length;
    return { position: error.position, line, column: error.position - before.lastIndexOf('\n'), reason: error.reason };
  }
}

class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.space();
    if (this.i < this.text.length) this.fail('text after the end of the document');
  }

  private value(): void {
    this.space();
    const c = this.text[this.i];
    if (c === '{') this.container('}', true);
    else if (c === '[') this.container(']', false);
    else if (c === '"') this.string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) this.number();
    else if (!['true', 'false', 'null'].some((word) => this.word(word))) this.fail('a value was expected');
  }

  private container(close: string, object: boolean): void {
    this.i++;
    this.space();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      if (object) {
        this.space();
        if (this.text[this.i] !== '"') this.fail('a double-quoted property name was expected');
        this.string();
        this.space();
        this.expect(':');
      }
      this.value();
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      this.expect(close);
      return;
    }
  }

  private string(): void {
    this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail('a string is not closed');
      if (c === '"') break;
      if (c < ' ') this.fail('a control character inside a string');
      if (c === '\\') {
        const e = this.text[this.i + 1] ?? '';
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) this.i += 4;
        else if (!'"\\/bfnrt'.includes(e) || e === '') this.fail('a bad escape in a string');
        this.i++;
      }
      this.i++;
    }
    this.i++;
  }

  private number(): void {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const found = m.exec(this.text);
    if (found === null) this.fail('a bad number');
    this.i += found[0].length;
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private expect(c: string): void {
    if (this.text[this.i] !== c) this.fail(`"${c}" was expected`);
    this.i++;
  }

  private fail(reason: string): never {
    const c = this.text[this.i];
    const found = c === undefined ? 'the end of the text' : `"${c}"`;
    throw new Stop(this.i, `${reason}, found ${found}`);
  }
}
