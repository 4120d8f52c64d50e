#!/usr/bin/env python3
"""Pretty-print JSON read from a file or stdin, with a small hand-written parser.

    python3 json_pretty.py [--indent N] [--sort] [FILE]
"""
import argparse
import sys


class ParseError(Exception):
    pass


class Parser:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def fail(self, what):
        line = self.text.count("\n", 0, self.pos) + 1
        raise ParseError(f"line {line}: {what}")

    def skip_ws(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self):
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch):
        if self.peek() != ch:
            self.fail(f"expected {ch!r}")
        self.pos += 1

    def value(self):
        ch = self.peek()
        if ch == "{":
            return self.obj()
        if ch == "[":
            return self.arr()
        if ch == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return val
        return self.number()

    def obj(self):
        self.expect("{")
        items = []
        if self.peek() == "}":
            self.pos += 1
            return dict(items)
        while True:
            key = self.string()
            self.expect(":")
            items.append((key, self.value()))
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect("}")
            return dict(items)

    def arr(self):
        self.expect("[")
        out = []
        if self.peek() == "]":
            self.pos += 1
            return out
        while True:
            out.append(self.value())
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect("]")
            return out

    def string(self):
        self.expect('"')
        chars = []
        escapes = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            self.pos += 1
            if ch == '"':
                return "".join(chars)
            if ch == "\\":
                esc = self.text[self.pos:self.pos + 1]
                self.pos += 1
                if esc == "u":
                    chars.append(chr(int(self.text[self.pos:self.pos + 4], 16)))
                    self.pos += 4
                elif esc in escapes:
                    chars.append(escapes[esc])
                else:
                    self.fail(f"bad escape \\{esc}")
            else:
                chars.append(ch)
        self.fail("unterminated string")

    def number(self):
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "+-0123456789.eE":
            self.pos += 1
        literal = self.text[start:self.pos]
        if not literal:
            self.fail("unexpected character")
        try:
            return int(literal)
        except ValueError:
            try:
                return float(literal)
            except ValueError:
                self.fail(f"bad number {literal!r}")


def quote(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def render(v, indent, sort_keys, depth=0):
    pad = " " * (indent * (depth + 1))
    end = " " * (indent * depth)
    if isinstance(v, dict):
        if not v:
            return "{}"
        keys = sorted(v) if sort_keys else list(v)
        body = [f"{pad}{quote(k)}: {render(v[k], indent, sort_keys, depth + 1)}" for k in keys]
        return "{\n" + ",\n".join(body) + "\n" + end + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        body = [pad + render(x, indent, sort_keys, depth + 1) for x in v]
        return "[\n" + ",\n".join(body) + "\n" + end + "]"
    if isinstance(v, str):
        return quote(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return repr(v)


def main():
    ap = argparse.ArgumentParser(description="Pretty-print JSON.")
    ap.add_argument("file", nargs="?", help="input file (default: stdin)")
    ap.add_argument("--indent", type=int, default=2)
    ap.add_argument("--sort", action="store_true", help="sort object keys")
    opts = ap.parse_args()
    text = open(opts.file, encoding="utf-8").read() if opts.file else sys.stdin.read()
    parser = Parser(text)
    try:
        doc = parser.value()
        if parser.peek():
            parser.fail("trailing data")
    except ParseError as e:
        print(f"json_pretty: {e}", file=sys.stderr)
        return 1
    print(render(doc, opts.indent, opts.sort))
    return 0


if __name__ == "__main__":
    sys.exit(main())
