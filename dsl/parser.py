"""Parse DSL text into the located AST of ``meeple.dsl.ast``.

The Lark parser is built once per process (LALR, with an indenter so blocks
read like Python). The transformer only builds nodes; it never raises domain
errors (Lark would wrap them in VisitError). Syntax errors become
``DslSyntaxError`` at the YAML file's line and column, and so do texts past the
limits of ``meeple.dsl.limits`` (too long, nested too deep, a number too large), found
before any pass over the tree could recurse too deep.
"""
from __future__ import annotations

import hashlib
import os
import pkgutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .errors import DslSyntaxError, Span
from .limits import MAX_DEPTH, MAX_INT, MAX_TEXT
from .source import TextOrigin, position
from .treecache import TreeCache

from . import ast as A


class _BadDedent(Exception):
    """A line indented less than its block but not as far as any outer block."""

    def __init__(self, line: int, indent: int, levels: list[int]):
        super().__init__(line)
        self.line, self.indent, self.levels = line, indent, levels


class _DslIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token):
        # Lark raises a bare DedentError without a position; say where instead.
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent_str = token.rsplit("\n", 1)[1]
            raise _BadDedent(token.end_line, len(indent_str), levels) from None


_LARK_OPTIONS = dict(parser="lalr", start=["start", "expr_start", "binder_start"], propagate_positions=True,
                     maybe_placeholders=True)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser, loaded from the user's cache when it holds one for this very grammar
    (building the tables takes a few tenths of a second; loading them, a hundredth)."""
    cache = _cache_file()
    # With a cache file, Lark checks the hash of the grammar, the options and its own version
    # written at the head of the file, and builds afresh (and rewrites the file) on any
    # mismatch, or when the file cannot be read whole (another process writing it meanwhile).
    parser = Lark.open_from_package(__package__, "grammar.lark", ("",), postlex=_DslIndenter(),
                                    cache=str(cache) if cache is not None else False, **_LARK_OPTIONS)
    _pass_single_children(parser)
    return parser


def _pass_single_children(parser: Lark) -> None:
    """A '?rule' alternative that is one other rule (``?expr: or_test``) hands that rule's tree
    on unchanged: Lark's callback (filter the children, keep the single one, fill in positions
    it already has) comes to ``children[0]``. The grammar's precedence chain makes these most
    of the reductions; calling nothing for them saves a fifth of the parse. Left as Lark made
    them if Lark's insides are not as expected."""
    from lark.grammar import NonTerminal
    callbacks = getattr(parser, "_callbacks", None)
    inner = getattr(getattr(getattr(parser, "parser", None), "parser", None), "parser", None)
    if not isinstance(callbacks, dict) or getattr(inner, "callbacks", None) is not callbacks:
        return
    for rule in list(callbacks):
        options = getattr(rule, "options", None)
        if (getattr(options, "expand1", False) and len(rule.expansion) == 1 and isinstance(rule.expansion[0], NonTerminal)
                and not any(getattr(options, "empty_indices", None) or ())):
            callbacks[rule] = _first


def _first(children: list) -> Any:
    return children[0]


def _cache_file() -> Optional[Path]:
    """Where this grammar's parser tables are kept between runs, or None not to keep them.

    Lark's own cache (``cache=PATH``): a file that Lark checks against a hash of the grammar
    and options, holding a pickle. As a pickle runs code when loaded, it is only read from a
    folder of the user's own that no one else may write to ($MEEPLE_CACHE_DIR, else
    $XDG_CACHE_HOME/meeple or ~/.cache/meeple; never the shared temporary folder, which is what
    Lark's ``cache=True`` uses). The grammar's hash is in the file name, so two checkouts with
    different grammars do not overwrite each other's file. MEEPLE_CACHE_DIR="" keeps no cache.
    """
    try:
        folder = os.environ.get("MEEPLE_CACHE_DIR")
        if folder == "":
            return None
        if folder is None:
            base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            if not os.path.isabs(base):
                return None
            folder = os.path.join(base, "meeple")
        root = Path(folder)
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(root):
            return None
        grammar = pkgutil.get_data(__package__, "grammar.lark")      # read as Lark reads it
        if grammar is None:
            return None
        import lark
        key = hashlib.sha256(grammar + repr((lark.__version__, sys.version_info[:2], _LARK_OPTIONS)).encode()).hexdigest()
        cache = root / f"dsl-grammar-{key[:20]}.lark"
        if cache.exists() and not _private(cache):
            return None
        return cache
    except (OSError, RuntimeError, ValueError):
        return None


@lru_cache(maxsize=1)
def _tree_cache() -> TreeCache:
    """The trees kept between runs (``meeple.dsl.treecache``), in a file beside the parser's
    tables whose name holds a hash of the grammar's file name and of the code that builds
    and stores trees; none when there is no private cache folder."""
    tables = _cache_file()
    if tables is None:
        return TreeCache(None)
    try:
        h = hashlib.sha256(tables.name.encode())
        for module in ("ast.py", "parser.py", "treecache.py"):
            h.update(pkgutil.get_data(__package__, module) or b"")
        path = tables.with_name(f"dsl-trees-{h.hexdigest()[:20]}.json")
        if path.exists() and not _private(path):
            return TreeCache(None)
        return TreeCache(path)
    except (OSError, RuntimeError, ValueError):
        return TreeCache(None)


def _private(path: Path) -> bool:
    """Owned by this user, and writable by no one else (where the system has owners)."""
    st = path.stat()
    if not hasattr(os, "getuid"):
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def _pos(meta: Any) -> A.Pos:
    if getattr(meta, "empty", True):
        return A.Pos(1, 1, 1)
    length = meta.end_column - meta.column if meta.end_line == meta.line else 1
    return A.Pos(meta.line, meta.column, max(1, length))


def _tpos(tok: Token) -> A.Pos:
    return A.Pos(tok.line, tok.column, len(tok))


def _block(items: Any) -> tuple:
    return tuple(items)


@v_args(meta=True)
class _Builder(Transformer):
    # ---- statements
    def start(self, meta, items):
        return tuple(items)

    def expr_start(self, meta, items):
        return items[0]

    def binder_start(self, meta, items):
        name, source, cond = items
        return A.Comprehension(str(name), source, cond, None, _pos(meta))

    def block(self, meta, items):
        return tuple(items)

    def amount(self, meta, items):
        return A.Amount(items[0], _pos(meta))

    def all_amount(self, meta, items):
        return A.Amount(None, _pos(meta))

    def _counter(self, verb, meta, items):
        amount, res = items[0], items[1]
        other = items[2] if len(items) > 2 else None
        return A.Counter(verb, amount, str(res), other, _pos(meta), _tpos(res))

    def gain(self, meta, items): return self._counter("gain", meta, items)
    def lose(self, meta, items): return self._counter("lose", meta, items)
    def give(self, meta, items): return self._counter("give", meta, items)
    def pay(self, meta, items): return self._counter("pay", meta, items)
    def pay_to(self, meta, items): return self._counter("pay_to", meta, items)
    def take(self, meta, items): return self._counter("take", meta, items)

    def set(self, meta, items):
        return A.Set(items[0], items[1], _pos(meta))

    def let(self, meta, items):
        return A.Let(str(items[0]), items[1], _pos(meta))

    def place_top(self, meta, items):
        return (items[0], False)

    def place_bottom(self, meta, items):
        return (items[0], True)

    def move(self, meta, items):
        zone, bottom = items[1]
        return A.Move(items[0], zone, bottom, _pos(meta))

    def draw(self, meta, items):
        zone, bottom = items[2]
        return A.Draw(items[0], items[1], zone, bottom, _pos(meta))

    def shuffle(self, meta, items):
        return A.Shuffle(items[0], _pos(meta))

    def swap(self, meta, items):
        return A.Swap(items[0], items[1], _pos(meta))

    def must_choose(self, meta, items):
        return False

    def may_choose(self, meta, items):
        return True

    def where(self, meta, items): return items[0]
    def order(self, meta, items): return ("order", items[0])
    def chooser(self, meta, items): return ("by", items[0])
    def prompt(self, meta, items): return str(items[0])[1:-1]

    def choose(self, meta, items):
        optional, name, source, cond, by, prompt = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, None, _pos(meta))

    def choose_many(self, meta, items):
        optional, count, name, source, cond, by, prompt = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, count, _pos(meta))

    def choose_range(self, meta, items):
        optional, least, most, name, source, cond, by, prompt = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, most, _pos(meta), least)

    def roll(self, meta, items):
        return A.Roll(items[0], _pos(meta))

    def option(self, meta, items):
        label, cond, body = items
        return A.Option(str(label)[1:-1], cond, body, _pos(meta))

    def choose_one(self, meta, items):
        optional, by, prompt, *options = items
        return A.ChooseOne(tuple(options), by[1] if by else None, prompt, optional, _pos(meta))

    def call(self, meta, items):
        return A.CallProc(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def do_hook(self, meta, items):
        return A.DoHook(str(items[0]), items[1], _pos(meta))

    def emit(self, meta, items):
        return A.Emit(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def play_actions(self, meta, items):
        return A.PlayActions(str(items[0]), items[1], _pos(meta))

    def log(self, meta, items):
        return A.Log(str(items[0])[1:-1], _pos(meta))

    def require(self, meta, items):
        cond, msg = items
        return A.Require(cond, str(msg)[1:-1] if msg is not None else None, _pos(meta))

    def stop(self, meta, items):
        return A.Stop(_pos(meta))

    def if_stmt(self, meta, items):
        branches = [(items[0], items[1])]
        orelse: tuple = ()
        for extra in items[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return A.If(tuple(branches), orelse, _pos(meta))

    def elif_clause(self, meta, items):
        return ("elif", items[0], items[1])

    def else_clause(self, meta, items):
        return ("else", items[0])

    def for_each(self, meta, items):
        name, source, cond, order, body = items
        return A.ForEach(str(name), source, cond, order[1] if order else None, body, _pos(meta))

    def repeat(self, meta, items):
        return A.Repeat(items[0], items[1], _pos(meta))

    def while_(self, meta, items):
        return A.While(items[0], items[1], _pos(meta))

    def as_(self, meta, items):
        return A.As(items[0], items[1], _pos(meta))

    # ---- expressions
    def args(self, meta, items):
        return tuple(items)

    def arg(self, meta, items):
        expr, var, source, cond = items
        if var is not None:
            return A.Comprehension(str(var), source, cond, expr, _pos(meta))
        if cond is not None or (isinstance(expr, A.Binary) and expr.op == "in" and isinstance(expr.left, A.Name)):
            if isinstance(expr, A.Binary) and expr.op == "in" and isinstance(expr.left, A.Name):
                return A.Comprehension(expr.left.name, expr.right, cond, None, _pos(meta))
            return A.Comprehension("", expr, cond, None, _pos(meta))   # checker reports it
        return expr

    def cond(self, meta, items):
        return A.Cond(items[0], items[1], items[2], _pos(meta))

    def or_(self, meta, items):
        return A.Binary("or", items[0], items[1], _pos(meta))

    def and_(self, meta, items):
        return A.Binary("and", items[0], items[1], _pos(meta))

    def not_(self, meta, items):
        return A.Unary("not", items[0], _pos(meta))

    def compare(self, meta, items):
        return A.Binary(str(items[1]), items[0], items[2], _pos(meta))

    def in_(self, meta, items):
        return A.Binary("in", items[0], items[1], _pos(meta))

    def not_in(self, meta, items):
        return A.Binary("notin", items[0], items[1], _pos(meta))

    def is_(self, meta, items):
        return A.Is(items[0], str(items[1]), False, _pos(meta), _tpos(items[1]))

    def is_not(self, meta, items):
        return A.Is(items[0], str(items[1]), True, _pos(meta), _tpos(items[1]))

    def is_none(self, meta, items):
        return A.Is(items[0], None, False, _pos(meta), _pos(meta))

    def is_not_none(self, meta, items):
        return A.Is(items[0], None, True, _pos(meta), _pos(meta))

    def range(self, meta, items):
        return A.Binary("..", items[0], items[1], _pos(meta))

    def arith(self, meta, items):
        return A.Binary(str(items[1]), items[0], items[2], _pos(meta))

    def neg(self, meta, items):
        return A.Unary("-", items[0], _pos(meta))

    def field(self, meta, items):
        return A.Field(items[0], str(items[1]), _pos(meta))

    def of_(self, meta, items):
        name, target = items
        if isinstance(target, tuple):
            return A.Of(str(name), None, target[0], _pos(meta), _tpos(name))
        return A.Of(str(name), target, "player", _pos(meta), _tpos(name))

    def of_all(self, meta, items):
        return ("all",)

    def of_others(self, meta, items):
        return ("others",)

    def int_(self, meta, items):
        digits = items[0]
        # checked by length first: Python refuses to read a number of 4,301 digits or more
        significant = digits.lstrip("0") or "0"
        if len(significant) > _INT_DIGITS or int(significant) > MAX_INT:
            raise _TooLarge(digits)
        return A.Int(int(significant), _pos(meta))

    def str_(self, meta, items): return A.Str(str(items[0])[1:-1], _pos(meta))
    def true_(self, meta, items): return A.Bool(True, _pos(meta))
    def false_(self, meta, items): return A.Bool(False, _pos(meta))
    def none_(self, meta, items): return A.NoneLit(_pos(meta))
    def me(self, meta, items): return A.Me(_pos(meta))
    def this(self, meta, items): return A.This(_pos(meta))
    def name(self, meta, items): return A.Name(str(items[0]), _pos(meta))

    def func(self, meta, items):
        return A.Call(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def list_(self, meta, items):
        return A.ListLit(tuple(i for i in items if i is not None), _pos(meta))


_BUILDER = _Builder()


def _callbacks() -> dict[str, Any]:
    """Rule name -> the builder's method as written (meta, items), without Lark's per-call wrapper."""
    out = {}
    for name in dir(_Builder):
        attr = getattr(_Builder, name, None)
        base = getattr(attr, "base_func", None)
        if base is not None and not name.startswith("_"):
            out[name] = base.__get__(_BUILDER)
    return out


_CALLBACKS = _callbacks()


class _TooDeep(Exception):
    """A part of the text nested deeper than MAX_DEPTH (its Lark node's position)."""

    def __init__(self, meta: Any):
        super().__init__()
        self.meta = meta


class _TooLarge(Exception):
    """A number beyond MAX_INT (its token)."""

    def __init__(self, token: Token):
        super().__init__()
        self.token = token


_INT_DIGITS = len(str(MAX_INT))

# Rules that only group the parts of a construct (a call's arguments, a statement's block, a
# 'where'): they add no level of nesting of their own. Every other node is one level deeper
# than the one it is in, but for the left operand of a chain of one operator (below).
_GROUPING = frozenset({"start", "expr_start", "binder_start", "block", "args", "arg", "amount", "all_amount", "where",
                       "order", "chooser", "prompt", "place_top", "place_bottom", "elif_clause", "else_clause",
                       "must_choose", "may_choose", "of_all", "of_others", "option"})
# 'a + b - c' is arith(arith(a, +, b), -, c): one chain, one level, however long.
_CHAINS = frozenset({"arith", "and_", "or_"})


def _build(tree: Tree, depth: int = 0) -> Any:
    """What ``_BUILDER.transform(tree)`` gives (the same nodes), without Lark's Transformer
    machinery around every call (which costs more than building the nodes).

    ``depth`` counts levels of nesting (see ``_GROUPING``); past MAX_DEPTH the text is
    refused (``_TooDeep``), so this and every later pass over the tree recurses a bounded
    number of times. The left side of a chain of one operator is walked in a loop."""
    data = tree.data
    if data not in _GROUPING:
        depth += 1
        if depth > MAX_DEPTH:
            raise _TooDeep(tree.meta)
    f = _CALLBACKS.get(data)
    if data in _CHAINS:
        first = tree.children[0]
        if isinstance(first, Tree) and first.data == data:
            spine = [tree]
            while isinstance(first, Tree) and first.data == data:
                spine.append(first)
                first = first.children[0]
            built = _build(first, depth) if isinstance(first, Tree) else first
            for node in reversed(spine):
                children = [built]
                for c in node.children[1:]:
                    children.append(_build(c, depth) if isinstance(c, Tree) else c)
                built = f(node.meta, children)
            return built
    children = []
    for c in tree.children:
        children.append(_build(c, depth) if isinstance(c, Tree) else c)
    if f is None:
        return Tree(data, children, tree.meta)
    return f(tree.meta, children)

_EXPECTED_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "NAME": "a name",
    "INT": "a number", "STRING": "a quoted text", "COMPARE": "a comparison", "$END": "end of text",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
}
# Tokens that continue an expression: when many are possible, "an operator" says it.
_OPERATORS = {"COMPARE", "ADD_OP", "MUL_OP", "MINUS", "AND", "OR", "IN", "IS", "NOT", "DOT", "__ANON_0", "OF"}
# Words that start a statement: when most are possible, "a statement" says it.
_STATEMENT_WORDS = {"GAIN", "LOSE", "GIVE", "PAY", "TAKE", "SET", "LET", "MOVE", "DRAW", "SHUFFLE", "SWAP", "CHOOSE",
                    "MAY", "CALL", "DO", "EMIT", "PLAY", "LOG", "REQUIRE", "STOP", "FOR", "REPEAT", "WHILE", "AS", "IF",
                    "ROLL"}
# Tokens that start a value: when most are possible, "a value" says it.
_VALUE_STARTS = {"LPAR", "MINUS", "LSQB", "FALSE", "TRUE", "ME", "NONE", "THIS", "NAME", "INT", "STRING", "IF", "NOT"}


@lru_cache(maxsize=1)
def _literal_names() -> dict[str, str]:
    """Token name -> how it is written, for every fixed word and sign of the grammar ('to', '[', '..')."""
    from lark.lexer import PatternStr
    return {t.name: repr(t.pattern.value) for t in _parser().terminals if isinstance(t.pattern, PatternStr)}


def to_span(origin: TextOrigin, line: int, col: int, length: int = 1) -> Span:
    """Map a (line, col) inside DSL text to the YAML file. In a quoted, plain or '>' scalar
    whose text is not its source (escapes, folded lines) the place is found by reading the
    source again; where that cannot be told, the start of the scalar (never a wrong line)."""
    if origin.raw:
        found = position(origin, line, col)
        if found is None:
            return Span(origin.file, origin.line, origin.col - (1 if origin.style in ('"', "'") else 0), 1)
        last = position(origin, line, col + max(length, 1) - 1)
        width = last[1] - found[1] + 1 if last is not None and last[0] == found[0] and last[1] >= found[1] else 1
        return Span(origin.file, found[0], found[1], width)
    if origin.block:
        return Span(origin.file, origin.line + line - 1, origin.col + col - 1, length)
    if line == 1:
        return Span(origin.file, origin.line, origin.col + col - 1, length)
    return Span(origin.file, origin.line + line - 1, col, length)


def _describe(expected: set[str]) -> str:
    """Lark's expected token names, as words: 'end of line', "':'", 'a name', an operator..."""
    literal = _literal_names()
    expected = set(expected)
    words: list[str] = []
    if len(expected & _STATEMENT_WORDS) >= 10:
        expected -= _STATEMENT_WORDS
        words.append("a statement (gain, set, move, if, for each, ...)")
    if len(expected & _VALUE_STARTS) >= 5:
        expected -= _VALUE_STARTS
        words.append("a value (a number, a name, a quoted text, ...)")
    if len(expected) > 6 and len(expected & _OPERATORS) >= 3:
        expected -= _OPERATORS
        words.append("an operator")
    names = sorted({_EXPECTED_NAMES.get(e) or literal.get(e) or e.lower().strip("_") for e in expected})
    names = words + names
    if len(names) > 8:
        return ", ".join(names[:8]) + ", ..."
    return ", ".join(names) if len(names) < 2 else ", ".join(names[:-1]) + " or " + names[-1]


def _code_end(line: str) -> int:
    """Column just after the end of the code on a line (before a comment and trailing blanks)."""
    code, in_text = [], False
    for ch in line:
        if ch == '"':
            in_text = not in_text
        elif ch == "#" and not in_text:
            break
        code.append(ch)
    return len("".join(code).rstrip()) + 1


# Trees of texts already parsed in this process, by (text, start rule): the same texts come
# again (a base game's texts in every pack that extends it; a function's body wherever it is
# used). A tree holds positions inside its text only, never the file (the origin is only read
# for errors, which are never kept here), and its nodes are frozen, so it is safely shared.
_TREES: dict[tuple[str, str], Any] = {}
_TREES_MAX = 20_000


def parse(text: str, origin: TextOrigin, start: str = "start") -> Any:
    """Parse statements (``start``), one expression or a binder; raise DslSyntaxError.
    A text longer than MAX_TEXT is refused before it is read."""
    if len(text) > MAX_TEXT:
        raise DslSyntaxError(f"this text is {len(text):,} chars long; a text of the effect language has at most {MAX_TEXT:,}",
                             to_span(origin, 1, 1), "split it into procedures or functions")
    key = (text, start)
    tree = _TREES.get(key)
    if tree is None:
        kept = _tree_cache()
        tree = kept.get(text, start)
        if tree is None:
            tree = _parse(text, origin, start)
            kept.put(text, start, tree)
        if len(_TREES) >= _TREES_MAX:
            _TREES.clear()
        _TREES[key] = tree
    return tree


def _parse(text: str, origin: TextOrigin, start: str) -> Any:
    src = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(src, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, src, origin) from None
    except _BadDedent as exc:
        outer = " or ".join(str(n) for n in exc.levels)
        raise DslSyntaxError(f"this line is indented by {exc.indent}, which matches no enclosing block (indented by {outer})",
                             to_span(origin, exc.line, exc.indent + 1)) from None
    try:
        return _build(tree)
    except _TooDeep as exc:
        meta = exc.meta
        raise DslSyntaxError(f"nested too deeply: more than {MAX_DEPTH} levels (brackets, operators, 'not', 'if', blocks, ...)",
                             to_span(origin, meta.line, meta.column), "name an inner part with 'let', or move it into a procedure") from None
    except _TooLarge as exc:
        tok = exc.token
        shown = str(tok) if len(tok) <= 24 else f"{tok[:12]}... ({len(tok):,} digits)"
        raise DslSyntaxError(f"number {shown} is too large: numbers are at most {MAX_INT:,}",
                             to_span(origin, tok.line, tok.column, len(tok))) from None


def _syntax_error(exc: UnexpectedInput, src: str, origin: TextOrigin) -> DslSyntaxError:
    lines = src.splitlines() or [""]
    if isinstance(exc, UnexpectedCharacters):
        ch = src[exc.pos_in_stream] if exc.pos_in_stream < len(src) else ""
        if ch == '"':
            return DslSyntaxError("this quoted text does not end on its line", to_span(origin, exc.line, exc.column),
                                  'close it with "')
        return DslSyntaxError(f"unexpected symbol {ch!r}", to_span(origin, exc.line, exc.column))
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END" or tok.type == "_DEDENT" and not str(tok).strip():
            last = max((i for i, l in enumerate(lines) if l.strip()), default=0)
            return DslSyntaxError(f"text ends too early; expected {_describe(exc.expected)}",
                                  to_span(origin, last + 1, _code_end(lines[last])))
        if tok.type == "_NL":
            line = tok.line
            col = _code_end(lines[line - 1]) if line - 1 < len(lines) else 1
            return DslSyntaxError(f"line ends too early; expected {_describe(exc.expected)}",
                                  to_span(origin, line, col))
        if tok.type == "_INDENT":
            line = tok.end_line
            indent = len(str(tok))
            return DslSyntaxError("unexpected indentation: only the lines after a ':' are indented",
                                  to_span(origin, line, indent + 1))
        before = lines[tok.line - 2].split("#")[0].rstrip() if tok.line >= 2 else ""
        if tok.column == 1 and before.endswith(":"):
            return DslSyntaxError("expected an indented block: indent the lines after ':'",
                                  to_span(origin, tok.line, 1, len(str(tok))))
        starts_line = tok.line <= len(lines) and not lines[tok.line - 1][:tok.column - 1].strip()
        if starts_line and tok.line > 1 and tok.type in _OPERATORS | {"AND", "OR", "THEN", "ELSE"}:
            return DslSyntaxError(f"unexpected {str(tok)!r} at the start of a line", to_span(origin, tok.line, tok.column, len(str(tok))),
                                  "an expression ends with its line; to go on, put it in ( )")
        return DslSyntaxError(f"unexpected {str(tok)!r}; expected {_describe(exc.expected)}",
                              to_span(origin, tok.line, tok.column, len(str(tok))))
    if isinstance(exc, UnexpectedEOF):
        return DslSyntaxError("text ends too early", to_span(origin, len(lines), 1))
    return DslSyntaxError(str(exc), to_span(origin, getattr(exc, "line", 1), getattr(exc, "column", 1)))
