# ---------------------------------------------------------------------------
# The spx runtime: the fixed part of every generated module, the same bytes
# in each. Standard library only (Python 3.9+); it reads the tables above.
#
# decode = steps 1-2 (size, strict UTF-8), then a fast path (json.loads, a
# typed walk, the canonical rendering compared with the input text), and
# when that does not match, the spec-ordered path of FORMAT.md section 7:
# framing, a strict JSON reader with the engine's acceptance, the envelope,
# the value walk, the canonical replay. The spec-ordered path alone decides
# every refusal, so each has the engine's code, rule and JSON Pointer.
# ---------------------------------------------------------------------------

_SPX_Z205 = "SPX-Z205"
_SPX_Z206 = "SPX-Z206"
_SPX_VALUE_ID = "semaprax.agent-interaction-value.v1"
_SPX_MAX_DOCUMENT_BYTES = 65536
_SPX_MAX_STRING_BYTES = 4096
_SPX_MAX_BYTES_LEN = 4096
_SPX_MAX_DEPTH = 16
_SPX_BOOL = 0
_SPX_STRING = 5
_SPX_BYTES = 6
_SPX_NESTED = 7
# Bounds of i32, i64, u8, u64 (type codes 1-4).
_SPX_MIN = (0, -(2**31), -(2**63), 0, 0)
_SPX_MAX = (0, 2**31 - 1, 2**63 - 1, 255, 2**64 - 1)
_SPX_DECIMAL = _spx_re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_SPX_ESCAPED = _spx_re.compile('["\\\\\x00-\x1f\x7f-\x9f]')
_SPX_WS = _spx_re.compile(r"[ \t\n\r]*")
_SPX_RUN = _spx_re.compile('[^"\\\\\x00-\x1f]*')
_SPX_NUMBER = _spx_re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_SPX_HEX4 = _spx_re.compile(r"[0-9a-fA-F]{4}")
_SPX_UNESCAPE = _spx_re.compile(
    r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([0-9a-fA-F]{4})|u([0-9a-fA-F]{4})|(.))",
    _spx_re.DOTALL,
)
_SPX_UNSHORT = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}

# A field: stable id, attribute name, type code, its canonical key (`"id":`),
# its JSON Pointer token (`/id`, escaped).
_SpxField = _spx_typing.Tuple[str, str, int, str, str]
_SpxCase = _spx_typing.Tuple[str, _spx_typing.Any, _spx_typing.Tuple[_SpxField, ...]]
# A type: stable id, constructor (a record's class), fields, cases (None for a record).
_SpxType = _spx_typing.Tuple[
    str,
    _spx_typing.Any,
    _spx_typing.Tuple[_SpxField, ...],
    _spx_typing.Optional[_spx_typing.Tuple[_SpxCase, ...]],
]
# A root: its type, stable id, schema digest, envelope prefix.
_SpxRoot = _spx_typing.Tuple[int, str, str, str]


class SpxError(Exception):
    """A refusal by `decode` or `encode`: the engine's code, rule and JSON Pointer."""

    code: str
    """`"SPX-Z205"` (not canonical JSON) or `"SPX-Z206"` (an admission rule failed)."""
    rule: str
    """The machine-readable rule, e.g. `"value.integer_range"` (docs/DECODING.md)."""
    pointer: str
    """The RFC 6901 JSON Pointer of the offending place; `""` for the whole document."""
    message: str
    """The engine's message."""

    def __init__(self, code: str, rule: str, pointer: str) -> None:
        if code == _SPX_Z205:
            message = "AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON"
        else:
            message = "AgentInteractionValue invariant failed: " + rule
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.pointer = pointer
        self.message = message

    def __repr__(self) -> str:
        return "SpxError(%r, %r, %r)" % (self.code, self.rule, self.pointer)


def _spx_token(ptr: str, key: str) -> str:
    return ptr + "/" + key.replace("~", "~0").replace("/", "~1")


def _spx_integer(r: int, s: str) -> _spx_typing.Union[int, str]:
    """The integer of decimal text `s` for representation `r` (1-4), or the rule it breaks."""
    if _SPX_DECIMAL.match(s) is None or s == "-0":
        return "value.integer"
    # Longer than any bound: out of range without converting a huge number.
    if len(s) > 20:
        return "value.integer_range"
    v = int(s)
    if v < _SPX_MIN[r] or v > _SPX_MAX[r]:
        return "value.integer_range"
    return v


# ------------------------------------------------------------------ decode


def _spx_decode(root: _SpxRoot, data: _spx_typing.Union[bytes, str]) -> _spx_typing.Any:
    if isinstance(data, str):
        # 1-2 for text: its UTF-8 length (a lone surrogate counts as the three
        # bytes it would take), then whether it has a UTF-8 form at all.
        try:
            size = len(data.encode("utf-8"))
            lone = False
        except UnicodeEncodeError:
            size = len(data.encode("utf-8", "surrogatepass"))
            lone = True
        if size > _SPX_MAX_DOCUMENT_BYTES:
            raise SpxError(_SPX_Z206, "document_bytes", "")
        if lone:
            raise SpxError(_SPX_Z206, "utf8", "")
        text = data
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if len(raw) > _SPX_MAX_DOCUMENT_BYTES:
            raise SpxError(_SPX_Z206, "document_bytes", "")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SpxError(_SPX_Z206, "utf8", "") from None
    else:
        raise TypeError("decode takes bytes or str")
    fast = _spx_fast(root, text)
    if fast is not None:
        return fast
    return _spx_spec_path(root, text)


def _spx_fast(root: _SpxRoot, text: str) -> _spx_typing.Any:
    """The fast path: json.loads, a walk that builds the typed value, and the
    canonical rendering of that value compared with the input. Equal text is
    admission; anything else returns None and the spec-ordered path decides."""
    try:
        j = _spx_json.loads(text)
        if type(j) is not dict or j.get("root_type_id") != root[1]:
            return None
        v = _spx_fast_type(root[0], j.get("value"), 0)
        if v is None or _spx_render(root, v) != text:
            return None
        return v
    except Exception:
        return None


def _spx_fast_type(ti: int, x: _spx_typing.Any, depth: int) -> _spx_typing.Any:
    _, cls, fields, cases = _SPX_TYPES[ti]
    if depth > _SPX_MAX_DEPTH or type(x) is not dict:
        return None
    f = x.get("fields")
    if type(f) is not dict:
        return None
    if cases is None:
        return _spx_fast_fields(cls, fields, f, depth)
    case = x.get("case")
    for cid, ccls, cfields in cases:
        if cid == case:
            return _spx_fast_fields(ccls, cfields, f, depth)
    return None


def _spx_fast_fields(
    cls: _spx_typing.Any, decl: _spx_typing.Tuple[_SpxField, ...], f: _spx_typing.Dict[str, _spx_typing.Any], depth: int
) -> _spx_typing.Any:
    vals: _spx_typing.List[_spx_typing.Any] = []
    for fid, _, t, _, _ in decl:
        if fid not in f:
            return None
        x = f[fid]
        if t >= _SPX_NESTED:
            v = _spx_fast_type(t - _SPX_NESTED, x, depth + 1)
            if v is None:
                return None
        elif t == _SPX_BOOL:
            if type(x) is not bool:
                return None
            v = x
        elif t == _SPX_STRING:
            if type(x) is not str or (len(x) > _SPX_MAX_STRING_BYTES // 4 and len(x.encode("utf-8")) > _SPX_MAX_STRING_BYTES):
                return None
            v = x
        elif t == _SPX_BYTES:
            if type(x) is not list or len(x) > _SPX_MAX_BYTES_LEN:
                return None
            # Raises for an element that is not an int 0..255 (the fast path
            # then gives up); `true` would pass as 1, but renders as `1`, not
            # as the input's `true`.
            v = bytes(x)
        else:
            if type(x) is not str:
                return None
            v = _spx_integer(t, x)
            if type(v) is not int:
                return None
        vals.append(v)
    return cls(*vals)


# The spec-ordered path.

# Node kinds of the span tree.
_SPX_NULL = 0
_SPX_FALSE = 1
_SPX_TRUE = 2
_SPX_NUM = 3
_SPX_TEXT = 4
_SPX_TEXT_ESCAPED = 5
_SPX_ARRAY = 6
_SPX_OBJECT = 7


class _SpxTree:
    """The span tree of the strict JSON reader: one node per value, in
    pre-order, with its kind, its offsets (code points, end exclusive) and
    the index of the first node after its subtree."""

    __slots__ = ("src", "kind", "start", "end", "nxt")

    def __init__(self, src: str) -> None:
        self.src = src
        self.kind: _spx_typing.List[int] = []
        self.start: _spx_typing.List[int] = []
        self.end: _spx_typing.List[int] = []
        self.nxt: _spx_typing.List[int] = []

    def leaf(self, kind: int, start: int, end: int) -> None:
        self.kind.append(kind)
        self.start.append(start)
        self.end.append(end)
        self.nxt.append(len(self.kind))

    def children(self, node: int) -> _spx_typing.List[int]:
        out: _spx_typing.List[int] = []
        c = node + 1
        while c < self.nxt[node]:
            out.append(c)
            c = self.nxt[c]
        return out

    def is_text(self, node: int) -> bool:
        return self.kind[node] in (_SPX_TEXT, _SPX_TEXT_ESCAPED)

    def text(self, node: int) -> str:
        inner = self.src[self.start[node] + 1 : self.end[node] - 1]
        if self.kind[node] != _SPX_TEXT_ESCAPED:
            return inner
        return _SPX_UNESCAPE.sub(_spx_unescape_one, inner)

    def lookup(self, obj: int, key: str) -> int:
        """The value of the last occurrence of `key` in object `obj`, or -1."""
        found = -1
        c = self.children(obj)
        for k in range(0, len(c) - 1, 2):
            if self.text(c[k]) == key:
                found = c[k + 1]
        return found

    def locate(self, at: int) -> str:
        """The JSON Pointer of the deepest value or object member (from its key
        to the end of its value) whose text holds offset `at`; "" when none does."""
        ptr = ""
        node = 0
        if not (self.start[0] <= at < self.end[0]):
            return ptr
        while True:
            c = self.children(node)
            if self.kind[node] == _SPX_OBJECT:
                hit = -1
                for k in range(0, len(c) - 1, 2):
                    if self.start[c[k]] <= at < self.end[c[k + 1]]:
                        hit = k
                        break
                if hit < 0:
                    break
                ptr = _spx_token(ptr, self.text(c[hit]))
                v = c[hit + 1]
                if not (self.start[v] <= at < self.end[v]):
                    break
                node = v
            elif self.kind[node] == _SPX_ARRAY:
                k = next((k for k, e in enumerate(c) if self.start[e] <= at < self.end[e]), -1)
                if k < 0:
                    break
                ptr = _spx_token(ptr, str(k))
                node = c[k]
            else:
                break
        return ptr


def _spx_unescape_one(m: "_spx_re.Match[str]") -> str:
    if m.group(1) is not None:
        hi = int(m.group(1), 16)
        lo = int(m.group(2), 16)
        return chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
    if m.group(3) is not None:
        return chr(int(m.group(3), 16))
    return _SPX_UNSHORT[m.group(4)]


def _spx_skip(s: str, i: int) -> int:
    """The offset after the JSON whitespace at `i`."""
    m = _SPX_WS.match(s, i)
    return m.end() if m is not None else i


def _spx_read(s: str) -> _spx_typing.Optional[_SpxTree]:
    """Step 4: RFC 8259 exactly as serde_json accepts it (no lone surrogate in
    a \\u escape, no number that overflows an f64, at most 127 open
    arrays/objects), iteratively. None when the text is not JSON."""
    t = _SpxTree(s)
    stack: _spx_typing.List[int] = []
    n = len(s)
    i = _spx_skip(s, 0)

    def string(i: int) -> int:
        """The string at `i` (its quote); the offset after it, or -1."""
        start = i
        i += 1
        escaped = False
        while True:
            m = _SPX_RUN.match(s, i)
            i = m.end() if m is not None else i
            if i >= n:
                return -1
            c = s[i]
            if c == '"':
                i += 1
                break
            if c != "\\":
                return -1
            escaped = True
            e = s[i + 1 : i + 2]
            i += 2
            if e == "u":
                if _SPX_HEX4.match(s, i) is None:
                    return -1
                hi = int(s[i : i + 4], 16)
                i += 4
                if 0xDC00 <= hi <= 0xDFFF:
                    return -1
                if 0xD800 <= hi <= 0xDBFF:
                    if s[i : i + 2] != "\\u" or _SPX_HEX4.match(s, i + 2) is None:
                        return -1
                    lo = int(s[i + 2 : i + 6], 16)
                    if not (0xDC00 <= lo <= 0xDFFF):
                        return -1
                    i += 6
            elif e not in _SPX_UNSHORT:
                return -1
        t.leaf(_SPX_TEXT_ESCAPED if escaped else _SPX_TEXT, start, i)
        return i

    def key(i: int) -> int:
        if s[i : i + 1] != '"':
            return -1
        i = string(i)
        if i < 0:
            return -1
        i = _spx_skip(s, i)
        if s[i : i + 1] != ":":
            return -1
        return _spx_skip(s, i + 1)

    while True:
        # A value at i.
        c = s[i : i + 1]
        if c == "{" or c == "[":
            if len(stack) >= 127:
                return None
            stack.append(len(t.kind))
            t.kind.append(_SPX_OBJECT if c == "{" else _SPX_ARRAY)
            t.start.append(i)
            t.end.append(i)
            t.nxt.append(0)
            i = _spx_skip(s, i + 1)
            if s[i : i + 1] == ("}" if c == "{" else "]"):
                node = stack.pop()
                i += 1
                t.end[node] = i
                t.nxt[node] = len(t.kind)
            else:
                if c == "{":
                    i = key(i)
                    if i < 0:
                        return None
                continue
        elif c == '"':
            i = string(i)
            if i < 0:
                return None
        elif c == "t" or c == "f" or c == "n":
            word = "true" if c == "t" else "false" if c == "f" else "null"
            if not s.startswith(word, i):
                return None
            t.leaf(_SPX_TRUE if c == "t" else _SPX_FALSE if c == "f" else _SPX_NULL, i, i + len(word))
            i += len(word)
        elif c == "-" or "0" <= c <= "9":
            m = _SPX_NUMBER.match(s, i)
            if m is None:
                return None
            end = m.end()
            if (m.group(1) is not None or m.group(2) is not None or end - i > 300) and _spx_math.isinf(
                float(s[i:end])
            ):
                return None
            t.leaf(_SPX_NUM, i, end)
            i = end
        else:
            return None
        # A value is complete: close containers, or go on to the next value.
        while True:
            i = _spx_skip(s, i)
            if not stack:
                return t if i == n else None
            obj = t.kind[stack[-1]] == _SPX_OBJECT
            d = s[i : i + 1]
            if d == ",":
                i = _spx_skip(s, i + 1)
                if obj:
                    i = key(i)
                    if i < 0:
                        return None
                break
            if d == ("}" if obj else "]"):
                node = stack.pop()
                i += 1
                t.end[node] = i
                t.nxt[node] = len(t.kind)
            else:
                return None


def _spx_exact_keys(t: _SpxTree, obj: int, keys: _spx_typing.Tuple[str, ...], ptr: str, rule: str) -> None:
    """Refuses (Z205 `rule`) an object whose key set is not exactly `keys`: the
    first unexpected key in document order, then the first missing one."""
    c = t.children(obj)
    for k in range(0, len(c), 2):
        key = t.text(c[k])
        if key not in keys:
            raise SpxError(_SPX_Z205, rule, _spx_token(ptr, key))
    for key in keys:
        if t.lookup(obj, key) < 0:
            raise SpxError(_SPX_Z205, rule, _spx_token(ptr, key))


def _spx_spec_path(root: _SpxRoot, text: str) -> _spx_typing.Any:
    """Steps 3-10 over text that passed steps 1-2."""
    # 3.
    n = len(text)
    if n < 2 or text[-1] != "\n" or text.find("\n") != n - 1 or "\r" in text or text[0] == "\ufeff":
        raise SpxError(_SPX_Z205, "document.framing", "")
    # 4.
    t = _spx_read(text[:-1])
    if t is None:
        raise SpxError(_SPX_Z205, "json.syntax", "")
    # 5.
    if t.kind[0] != _SPX_OBJECT:
        raise SpxError(_SPX_Z205, "envelope.shape", "")
    _spx_exact_keys(t, 0, ("schema", "root_type_id", "schema_digest", "value"), "", "envelope.keys")
    # 6.
    s = t.lookup(0, "schema")
    if not t.is_text(s) or t.text(s) != _SPX_VALUE_ID:
        raise SpxError(_SPX_Z205, "envelope.schema", "/schema")
    # 7.
    r = t.lookup(0, "root_type_id")
    if not t.is_text(r):
        raise SpxError(_SPX_Z205, "envelope.shape", "/root_type_id")
    if t.text(r) != root[1]:
        raise SpxError(_SPX_Z206, "root_type_id", "/root_type_id")
    # 8.
    d = t.lookup(0, "schema_digest")
    if not t.is_text(d):
        raise SpxError(_SPX_Z205, "envelope.shape", "/schema_digest")
    if t.text(d) != root[2]:
        raise SpxError(_SPX_Z206, "schema_digest", "/schema_digest")
    # 9.
    value = _spx_walk_type(t, root[0], t.lookup(0, "value"), 0, "/value")
    # 10.
    canonical = _spx_render(root, value)
    if canonical == text:
        return value
    at = 0
    limit = min(n, len(canonical))
    while at < limit and canonical[at] == text[at]:
        at += 1
    raise SpxError(_SPX_Z205, "canonical.mismatch", t.locate(at))


def _spx_walk_type(t: _SpxTree, ti: int, node: int, depth: int, ptr: str) -> _spx_typing.Any:
    if depth > _SPX_MAX_DEPTH:
        raise SpxError(_SPX_Z206, "value.max_depth", ptr)
    _, cls, fields, cases = _SPX_TYPES[ti]
    if t.kind[node] != _SPX_OBJECT:
        raise SpxError(_SPX_Z205, "value.shape", ptr)
    if cases is None:
        _spx_exact_keys(t, node, ("fields",), ptr, "value.shape")
        return _spx_walk_fields(t, cls, fields, t.lookup(node, "fields"), depth, ptr + "/fields")
    _spx_exact_keys(t, node, ("case", "fields"), ptr, "value.shape")
    c = t.lookup(node, "case")
    if not t.is_text(c):
        raise SpxError(_SPX_Z205, "value.shape", ptr + "/case")
    cid = t.text(c)
    for kid, kcls, kfields in cases:
        if kid == cid:
            return _spx_walk_fields(t, kcls, kfields, t.lookup(node, "fields"), depth, ptr + "/fields")
    raise SpxError(_SPX_Z206, "value.case", ptr + "/case")


def _spx_walk_fields(
    t: _SpxTree, cls: _spx_typing.Any, decl: _spx_typing.Tuple[_SpxField, ...], obj: int, depth: int, ptr: str
) -> _spx_typing.Any:
    if t.kind[obj] != _SPX_OBJECT:
        raise SpxError(_SPX_Z205, "value.shape", ptr)
    index: _spx_typing.Dict[str, int] = {}
    for j, (fid, _, _, _, _) in enumerate(decl):
        index.setdefault(fid, j)
    slots = [-1] * len(decl)
    c = t.children(obj)
    for k in range(0, len(c) - 1, 2):
        key = t.text(c[k])
        slot = index.get(key)
        if slot is None:
            raise SpxError(_SPX_Z206, "value.fields.unknown", _spx_token(ptr, key))
        slots[slot] = c[k + 1]
    vals: _spx_typing.List[_spx_typing.Any] = []
    for j, (_, _, ty, _, tok) in enumerate(decl):
        p = ptr + tok
        v = slots[j]
        if v < 0:
            raise SpxError(_SPX_Z206, "value.fields.missing", p)
        if ty >= _SPX_NESTED:
            vals.append(_spx_walk_type(t, ty - _SPX_NESTED, v, depth + 1, p))
        else:
            vals.append(_spx_walk_scalar(t, ty, v, p))
    return cls(*vals)


_SPX_BYTE = _spx_re.compile(r"[0-9]{1,3}\Z")


def _spx_walk_scalar(t: _SpxTree, r: int, node: int, ptr: str) -> _spx_typing.Any:
    kind = t.kind[node]
    if r == _SPX_BOOL:
        if kind == _SPX_TRUE or kind == _SPX_FALSE:
            return kind == _SPX_TRUE
    elif r == _SPX_STRING:
        if t.is_text(node):
            s = t.text(node)
            if len(s) > _SPX_MAX_STRING_BYTES // 4 and len(s.encode("utf-8")) > _SPX_MAX_STRING_BYTES:
                raise SpxError(_SPX_Z206, "value.string_bytes", ptr)
            return s
    elif r == _SPX_BYTES:
        if kind == _SPX_ARRAY:
            c = t.children(node)
            if len(c) > _SPX_MAX_BYTES_LEN:
                raise SpxError(_SPX_Z206, "value.bytes_length", ptr)
            out = bytearray()
            for k, e in enumerate(c):
                raw = t.src[t.start[e] : t.end[e]]
                # A JSON integer 0..=255: a number with no sign, fraction or exponent.
                if t.kind[e] != _SPX_NUM or _SPX_BYTE.match(raw) is None or int(raw) > 255:
                    raise SpxError(_SPX_Z206, "value.bytes_element", _spx_token(ptr, str(k)))
                out.append(int(raw))
            return bytes(out)
    elif t.is_text(node):
        v = _spx_integer(r, t.text(node))
        if isinstance(v, str):
            raise SpxError(_SPX_Z206, v, ptr)
        return v
    raise SpxError(_SPX_Z206, "value.representation", ptr)


# ------------------------------------------------------------------ encode


# The control characters section 2 writes as \u00XX (those without a short form).
_SPX_CONTROL = _spx_re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _spx_control(m: "_spx_re.Match[str]") -> str:
    return "\\u%04x" % ord(m.group(0))


# The decimal text of each byte.
_SPX_BYTE_TEXT = tuple(str(b) for b in range(256))


def _spx_quote(s: str) -> str:
    """`s` as a canonical JSON string (FORMAT.md section 2), quotes included."""
    if _SPX_ESCAPED.search(s) is None:
        return '"' + s + '"'
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    if _SPX_CONTROL.search(s) is not None:
        s = _SPX_CONTROL.sub(_spx_control, s)
    return '"' + s + '"'


def _spx_render(root: _SpxRoot, v: _spx_typing.Any) -> str:
    """The canonical document of `v`, a value that a walk or `_spx_check_type`
    established (no document size bound)."""
    out: _spx_typing.List[str] = [root[3]]
    _spx_write_type(out, root[0], v)
    out.append("}\n")
    return "".join(out)


def _spx_encode(root: _SpxRoot, v: _spx_typing.Any) -> str:
    _spx_check_type(root[0], v, 0, "/value")
    doc = _spx_render(root, v)
    if len(doc) > _SPX_MAX_DOCUMENT_BYTES // 4 and len(doc.encode("utf-8")) > _SPX_MAX_DOCUMENT_BYTES:
        raise SpxError(_SPX_Z206, "document_bytes", "")
    return doc


def _spx_write_type(out: _spx_typing.List[str], ti: int, v: _spx_typing.Any) -> None:
    _, cls, fields, cases = _SPX_TYPES[ti]
    if cases is None:
        out.append('{"fields":{')
    else:
        for cid, ccls, cfields in cases:
            if isinstance(v, ccls):
                out.append('{"case":' + _spx_quote(cid) + ',"fields":{')
                fields = cfields
                break
    first = True
    for _, name, ty, key, _ in fields:
        if first:
            first = False
        else:
            out.append(",")
        out.append(key)
        x = getattr(v, name)
        if ty >= _SPX_NESTED:
            _spx_write_type(out, ty - _SPX_NESTED, x)
        elif ty == _SPX_BOOL:
            out.append("true" if x else "false")
        elif ty == _SPX_STRING:
            out.append(_spx_quote(x))
        elif ty == _SPX_BYTES:
            out.append("[" + ",".join(map(_SPX_BYTE_TEXT.__getitem__, x)) + "]")
        else:
            out.append('"%d"' % x)
    out.append("}}")


def _spx_check_type(ti: int, v: _spx_typing.Any, depth: int, ptr: str) -> None:
    """Refuses a value the format cannot carry, with the engine encoder's rule
    and pointer, in the decoder's order (each field in declaration order)."""
    if depth > _SPX_MAX_DEPTH:
        raise SpxError(_SPX_Z206, "value.max_depth", ptr)
    _, cls, fields, cases = _SPX_TYPES[ti]
    if cases is None:
        if not isinstance(v, cls):
            raise SpxError(_SPX_Z206, "value.representation", ptr)
        _spx_check_fields(fields, v, depth, ptr + "/fields")
        return
    for _, ccls, cfields in cases:
        if isinstance(v, ccls):
            _spx_check_fields(cfields, v, depth, ptr + "/fields")
            return
    raise SpxError(_SPX_Z206, "value.representation", ptr)


def _spx_check_fields(decl: _spx_typing.Tuple[_SpxField, ...], v: _spx_typing.Any, depth: int, ptr: str) -> None:
    for _, name, ty, _, tok in decl:
        p = ptr + tok
        x = getattr(v, name, None)
        if x is None:
            raise SpxError(_SPX_Z206, "value.fields.missing", p)
        if ty >= _SPX_NESTED:
            _spx_check_type(ty - _SPX_NESTED, x, depth + 1, p)
        elif ty == _SPX_BOOL:
            if type(x) is not bool:
                raise SpxError(_SPX_Z206, "value.representation", p)
        elif ty == _SPX_STRING:
            if not isinstance(x, str):
                raise SpxError(_SPX_Z206, "value.representation", p)
            try:
                size = len(x.encode("utf-8"))
            except UnicodeEncodeError:
                # A lone surrogate has no UTF-8 form: not a string the format can carry.
                raise SpxError(_SPX_Z206, "value.representation", p) from None
            if size > _SPX_MAX_STRING_BYTES:
                raise SpxError(_SPX_Z206, "value.string_bytes", p)
        elif ty == _SPX_BYTES:
            if not isinstance(x, (bytes, bytearray)):
                raise SpxError(_SPX_Z206, "value.representation", p)
            if len(x) > _SPX_MAX_BYTES_LEN:
                raise SpxError(_SPX_Z206, "value.bytes_length", p)
        else:
            if type(x) is not int:
                raise SpxError(_SPX_Z206, "value.representation", p)
            if x < _SPX_MIN[ty] or x > _SPX_MAX[ty]:
                raise SpxError(_SPX_Z206, "value.integer_range", p)
