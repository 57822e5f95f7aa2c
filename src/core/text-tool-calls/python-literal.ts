/** A call written in Python syntax: `get_weather(city="Paris")`. */
export interface PythonCall {
  name: string;
  args: Record<string, unknown>;
}

/** Deeper values are refused, as in JSON arguments: the parser recurses, and no real tool needs them. */
const maxDepth = 64;
/** At most this many calls are read from one list. */
const maxCalls = 16;

/**
 * Reads calls written the way Llama 3.2 / 4 and Gemma are prompted to write them:
 * `[get_weather(city="Paris", unit="celsius"), get_time(zone='CET')]`, one bare call, several
 * separated by commas or lines, or one call inside `print(…)`. Arguments are keyword arguments
 * whose values are Python literals: strings (either quote, triple quotes, escapes, adjacent
 * literals joined), ints and floats (negative, exponent, `_` separators), `True` / `False` /
 * `None` (and JSON's `true` / `false` / `null`, which small models mix in), lists, tuples (as
 * arrays) and dicts. Nothing is evaluated: anything else (a positional argument, a variable, an
 * expression) makes the whole text no call list, and the result is undefined.
 */
export function parsePythonCalls(text: string): PythonCall[] | undefined {
  const reader = new Reader(text);
  try {
    const calls = reader.callList();
    reader.skipSpace();
    return reader.atEnd() && calls.length > 0 ? calls : undefined;
  } catch (error) {
    if (error === notPython) return undefined;
    throw error;
  }
}

/** Gemma 4's string delimiter, one token: `<|"|>Paris<|"|>`. */
const gemmaQuote = '<|"|>';

/**
 * Reads the calls of Gemma 4's native form, the body of one `<|tool_call>…<tool_call|>` block:
 * `call:get_weather{city:<|"|>Paris<|"|>,days:3}`, several written one after the other. Keys are
 * bare (or quoted); strings are delimited by `<|"|>` and taken as written (no escapes inside), or
 * quoted as in Python; numbers, `true` / `false` / `null`, lists `[…]` and objects `{key:…}` nest.
 * Anything else makes the whole text no call, and the result is undefined.
 */
export function parseGemmaCalls(text: string): PythonCall[] | undefined {
  const reader = new Reader(text, true);
  try {
    const calls = reader.gemmaCalls();
    return calls.length > 0 ? calls : undefined;
  } catch (error) {
    if (error === notPython) return undefined;
    throw error;
  }
}

const notPython = Symbol("not python");

class Reader {
  private position = 0;

  /** `gemma`: Gemma 4's dialect (`<|"|>` strings, bare keys in objects). */
  constructor(
    private readonly text: string,
    private readonly gemma = false,
  ) {}

  gemmaCalls(): PythonCall[] {
    const calls: PythonCall[] = [];
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) return calls;
      if (calls.length === maxCalls || !this.text.startsWith("call:", this.position)) throw notPython;
      this.position += "call:".length;
      const name = this.name();
      this.skipSpace();
      if (this.text[this.position] !== "{") throw notPython;
      calls.push({ name, args: this.dict(1) });
    }
  }

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  callList(): PythonCall[] {
    this.skipSpace();
    const bracketed = this.text[this.position] === "[";
    if (bracketed) this.position++;
    const calls: PythonCall[] = [];
    for (;;) {
      this.skipSpace();
      if (bracketed && this.take("]")) return calls;
      if (this.atEnd()) {
        if (bracketed) throw notPython; // an unclosed list
        return calls;
      }
      if (calls.length === maxCalls) throw notPython;
      calls.push(this.call());
      this.skipSpace();
      this.take(","); // commas between calls are optional (a call per line)
    }
  }

  private call(): PythonCall {
    const name = this.name();
    this.skipSpace();
    this.expect("(");
    // Gemma's tool_code sometimes prints the call: `print(get_weather(city="Paris"))`.
    if (name === "print") {
      this.skipSpace();
      const inner = this.call();
      this.skipSpace();
      this.take(",");
      this.skipSpace();
      this.expect(")");
      return inner;
    }
    const args: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.take(")")) return { name, args };
      const key = this.identifier();
      this.skipSpace();
      if (!this.take("=")) throw notPython; // a positional argument has no name to map it to
      const value = this.value(1);
      if (key !== "__proto__") args[key] = value;
      this.skipSpace();
      if (!this.take(",")) {
        this.skipSpace();
        this.expect(")");
        return { name, args };
      }
    }
  }

  /** A dotted name: `get_weather`, `functions.get_weather`, `default_api.get_weather`. */
  private name(): string {
    let name = this.identifier();
    while (this.text[this.position] === "." && /[A-Za-z_]/.test(this.text[this.position + 1] ?? "")) {
      this.position++;
      name += `.${this.identifier()}`;
    }
    return name;
  }

  /** An identifier; `-` is let in, for a tool named `get-weather` that the model wrote as it was named. */
  private identifier(): string {
    const match = /[A-Za-z_][A-Za-z0-9_-]*/y;
    match.lastIndex = this.position;
    const found = match.exec(this.text);
    if (found === null) throw notPython;
    this.position += found[0].length;
    return found[0];
  }

  private value(depth: number): unknown {
    if (depth > maxDepth) throw notPython;
    this.skipSpace();
    const char = this.text[this.position];
    if (this.gemma && this.text.startsWith(gemmaQuote, this.position)) return this.gemmaString();
    if (char === '"' || char === "'") return this.strings();
    if (char === "[") return this.sequence("]", depth);
    if (char === "(") return this.sequence(")", depth);
    if (char === "{") return this.dict(depth);
    const word = /(?:True|False|None|true|false|null)(?![A-Za-z0-9_])/y;
    word.lastIndex = this.position;
    const literal = word.exec(this.text);
    if (literal !== null) {
      this.position += literal[0].length;
      return literal[0] === "True" || literal[0] === "true"
        ? true
        : literal[0] === "None" || literal[0] === "null"
          ? null
          : false;
    }
    return this.number();
  }

  private number(): number {
    const pattern = /[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?(?![A-Za-z0-9_.])/y;
    pattern.lastIndex = this.position;
    const found = pattern.exec(this.text);
    if (found === null) throw notPython;
    this.position += found[0].length;
    const value = Number(found[0].replace(/_/g, ""));
    if (!Number.isFinite(value)) throw notPython;
    return value;
  }

  /** A list or tuple (both arrays, as JSON has no tuple); a trailing comma is allowed. */
  private sequence(close: "]" | ")", depth: number): unknown[] {
    this.position++;
    const items: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.take(close)) return items;
      items.push(this.value(depth + 1));
      this.skipSpace();
      if (!this.take(",")) {
        this.skipSpace();
        this.expect(close);
        return items;
      }
    }
  }

  private dict(depth: number): Record<string, unknown> {
    this.position++;
    const dict: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.take("}")) return dict;
      const key =
        this.gemma && /[A-Za-z_]/.test(this.text[this.position] ?? "") ? this.identifier() : this.value(depth + 1);
      if (typeof key !== "string" && typeof key !== "number") throw notPython;
      this.skipSpace();
      this.expect(":");
      const value = this.value(depth + 1);
      if (key !== "__proto__") dict[String(key)] = value;
      this.skipSpace();
      if (!this.take(",")) {
        this.skipSpace();
        this.expect("}");
        return dict;
      }
    }
  }

  /** A Gemma 4 string: everything up to the closing `<|"|>`, as written. */
  private gemmaString(): string {
    const start = this.position + gemmaQuote.length;
    const end = this.text.indexOf(gemmaQuote, start);
    if (end === -1) throw notPython;
    this.position = end + gemmaQuote.length;
    return this.text.slice(start, end);
  }

  /** One string literal, or several written side by side (`"a" "b"` is `"ab"` in Python). */
  private strings(): string {
    let value = this.string();
    for (;;) {
      const save = this.position;
      this.skipSpace();
      const next = this.text[this.position];
      if (next !== '"' && next !== "'") {
        this.position = save;
        return value;
      }
      value += this.string();
    }
  }

  private string(): string {
    const quote = this.text[this.position]!;
    const triple = this.text.startsWith(quote.repeat(3), this.position);
    const close = triple ? quote.repeat(3) : quote;
    this.position += close.length;
    let value = "";
    for (;;) {
      if (this.atEnd()) throw notPython;
      if (this.text.startsWith(close, this.position)) {
        this.position += close.length;
        return value;
      }
      const char = this.text[this.position]!;
      if (char === "\n" && !triple) throw notPython;
      if (char === "\\") {
        value += this.escape();
        continue;
      }
      value += char;
      this.position++;
    }
  }

  /** Python's escapes; an unknown one keeps its backslash, as Python does. */
  private escape(): string {
    const next = this.text[this.position + 1];
    if (next === undefined) throw notPython;
    this.position += 2;
    const simple = simpleEscapes[next];
    if (simple !== undefined) return simple;
    const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width > 0) {
      const hex = this.text.slice(this.position, this.position + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) throw notPython;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) throw notPython;
      this.position += width;
      return String.fromCodePoint(code);
    }
    return `\\${next}`;
  }

  skipSpace(): void {
    for (;;) {
      const char = this.text[this.position];
      if (char === " " || char === "\t" || char === "\n" || char === "\r") this.position++;
      else if (char === "#") {
        const end = this.text.indexOf("\n", this.position);
        this.position = end === -1 ? this.text.length : end;
      } else return;
    }
  }

  private take(char: string): boolean {
    if (this.text[this.position] !== char) return false;
    this.position++;
    return true;
  }

  private expect(char: string): void {
    if (!this.take(char)) throw notPython;
  }
}

const simpleEscapes: Record<string, string | undefined> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
  "0": "\0",
  "\n": "",
};
