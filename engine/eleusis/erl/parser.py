"""ERL parser (NE-21.3): recursive descent, errors with line and column (NE-21.10).

Hostile sources fail fast: the tree's node count (300) and canonical depth (24) are
checked as each node is built (E41), and the parser's own nesting, parentheses included,
is capped at :data:`MAX_PARSE_NESTING` (Our ruling OR02), so no input reaches Python's
recursion limit or does more than linear work.
"""

from __future__ import annotations

from engine.eleusis.erl.errors import ErlError, Pos
from engine.eleusis.erl.lexer import Token, normalise, tokenize
from engine.eleusis.erl.tree import Const, Node
from engine.eleusis.faces import ATTRIBUTES

MAX_NODES = 300
MAX_DEPTH = 24
MAX_PARSE_NESTING = 64
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
STATEMENT_WORDS = ("let", "state", "start", "accept")


def _describe(token: Token) -> str:
    if token.kind == "eof":
        return "the end of the rule"
    return repr(token.text)


class Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0
        self.nodes = 0
        self.nesting = 0

    # --- tokens ---------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def at(self, kind: str, text: str | None = None) -> bool:
        t = self.tokens[self.i]
        return t.kind == kind and (text is None or t.text == text)

    def at_op(self, text: str) -> bool:
        return self.at("op", text)

    def at_kw(self, text: str) -> bool:
        return self.at("kw", text)

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def fail(self, message: str, pos: Pos | None = None) -> ErlError:
        return ErlError("syntax", message, pos or self.tok.pos)

    def expect(self, kind: str, text: str, what: str) -> Token:
        if not self.at(kind, text):
            raise self.fail(f"Expected {what}, found {_describe(self.tok)}.")
        return self.advance()

    # --- building -------------------------------------------------------------------

    def count(self, pos: Pos) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ErlError("too_big", f"The rule has more than {MAX_NODES} syntax nodes.", pos)

    def node(self, kind: str, pos: Pos, *args: object, children: tuple[Node, ...] = ()) -> Node:
        self.count(pos)
        height = 1 + max((c.height for c in children), default=0)
        # An expression sits under a statement, which adds one level.
        if height > (MAX_DEPTH if kind in STATEMENT_WORDS else MAX_DEPTH - 1):
            raise ErlError(
                "too_deep", f"The rule is nested more than {MAX_DEPTH} levels deep.", pos
            )
        return Node(kind, pos, tuple(args), height)

    def const(self, type_: str, value: int | bool | str, pos: Pos) -> Const:
        self.count(pos)
        return Const(type_, value, pos)

    def enter(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_PARSE_NESTING:
            raise ErlError(
                "too_deep",
                f"The rule nests more than {MAX_PARSE_NESTING} levels (parentheses included).",
                self.tok.pos,
            )

    def leave(self) -> None:
        self.nesting -= 1

    # --- grammar --------------------------------------------------------------------

    def program(self) -> list[Node]:
        statements = []
        while not self.at("eof"):
            statements.append(self.statement())
            if self.at_op(";"):
                self.advance()
        return statements

    def statement(self) -> Node:
        t = self.tok
        if t.kind == "kw" and t.text in STATEMENT_WORDS:
            self.advance()
            if t.text in ("start", "accept"):
                body = self.expr()
                return self.node(t.text, t.pos, body, children=(body,))
            name = self.name_token("a name after " + repr(t.text))
            if t.text == "let":
                self.expect("op", "=", "'=' after the name")
                body = self.expr()
                return self.node("let", t.pos, name.text, body, children=(body,))
            modulus: int | None = None
            if self.at_kw("mod"):
                self.advance()
                if not self.at("int"):
                    raise ErlError(
                        "bad_modulus",
                        "A state's modulus must be a number from 2 to 52.",
                        self.tok.pos,
                    )
                modulus = int(self.advance().text)
            self.expect("op", "=", "'=' before the state's starting value")
            start = self.constant()
            self.expect("kw", "then", "'then' before the state's step")
            step = self.expr()
            return self.node("state", t.pos, name.text, modulus, start, step, children=(step,))
        raise self.fail(
            f"Expected a statement (let, state, start or accept), found {_describe(t)}."
        )

    def name_token(self, what: str) -> Token:
        if not self.at("name"):
            t = self.tok
            extra = " (a reserved word)" if t.kind in ("kw", "suit", "color") else ""
            raise self.fail(f"Expected {what}, found {_describe(t)}{extra}.")
        return self.advance()

    def expr(self) -> Node:
        self.enter()
        try:
            if self.at_kw("if"):
                t = self.advance()
                cond = self.expr()
                self.expect("kw", "then", "'then'")
                yes = self.expr()
                self.expect("kw", "else", "'else' (every if needs one)")
                no = self.expr()
                return self.node("if", t.pos, cond, yes, no, children=(cond, yes, no))
            return self.implication()
        finally:
            self.leave()

    def implication(self) -> Node:
        left = self.disjunction()
        if self.at_kw("implies"):
            t = self.advance()
            self.enter()
            try:
                right = self.implication()
            finally:
                self.leave()
            return self.node("logic", t.pos, "implies", left, right, children=(left, right))
        return left

    def disjunction(self) -> Node:
        left = self.conjunction()
        while self.at_kw("or") or self.at_kw("xor"):
            t = self.advance()
            right = self.conjunction()
            left = self.node("logic", t.pos, t.text, left, right, children=(left, right))
        return left

    def conjunction(self) -> Node:
        left = self.negation()
        while self.at_kw("and"):
            t = self.advance()
            right = self.negation()
            left = self.node("logic", t.pos, "and", left, right, children=(left, right))
        return left

    def negation(self) -> Node:
        if self.at_kw("not"):
            t = self.advance()
            self.enter()
            try:
                inner = self.negation()
            finally:
                self.leave()
            return self.node("not", t.pos, inner, children=(inner,))
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum()
        t = self.tok
        if t.kind == "op" and t.text in COMPARISONS:
            self.advance()
            right = self.sum()
            out = self.node("cmp", t.pos, t.text, left, right, children=(left, right))
        elif self.at_kw("in") or (
            self.at_kw("not")
            and self.tokens[self.i + 1].kind == "kw"
            and self.tokens[self.i + 1].text == "in"
        ):
            kind = "in"
            if self.at_kw("not"):
                self.advance()
                kind = "notin"
            self.advance()
            coll = self.collection()
            kids = (left,) if coll.kind == "set" else (left, *coll.args)
            out = self.node(kind, t.pos, left, coll, children=(*kids, coll))
        else:
            return left
        nxt = self.tok
        if (nxt.kind == "op" and nxt.text in COMPARISONS) or self.at_kw("in"):
            raise self.fail("Comparisons cannot be chained; use 'and' or parentheses.")
        return out

    def collection(self) -> Node:
        if self.at_op("{"):
            t = self.advance()
            items = [self.constant()]
            while self.at_op(","):
                self.advance()
                items.append(self.constant())
            self.expect("op", "}", "',' or '}' in the set")
            return self.node("set", t.pos, tuple(items))
        low = self.sum()
        t = self.expect("op", "..", "'{' (a set) or '..' (a range) after 'in'")
        high = self.sum()
        return self.node("range", t.pos, low, high, children=(low, high))

    def sum(self) -> Node:
        left = self.product()
        while self.at_op("+") or self.at_op("-"):
            t = self.advance()
            right = self.product()
            left = self.node("arith", t.pos, t.text, left, right, children=(left, right))
        return left

    def product(self) -> Node:
        left = self.unary()
        while self.at_op("*") or self.at_kw("mod"):
            t = self.advance()
            right = self.unary()
            left = self.node("arith", t.pos, t.text, left, right, children=(left, right))
        return left

    def unary(self) -> Node:
        if self.at_op("-"):
            t = self.advance()
            self.enter()
            try:
                inner = self.unary()
            finally:
                self.leave()
            return self.node("neg", t.pos, inner, children=(inner,))
        return self.postfix()

    def postfix(self) -> Node:
        base = self.primary()
        while self.at_op("."):
            self.advance()
            t = self.tok
            if t.kind not in ("name", "color", "kw", "suit"):
                raise self.fail(f"Expected an attribute name after '.', found {_describe(t)}.")
            if t.text not in ATTRIBUTES:
                raise ErlError(
                    "unknown_name",
                    f"A card has no attribute {t.text!r} (it has: {', '.join(ATTRIBUTES)}).",
                    t.pos,
                )
            self.advance()
            base = self.node("attr", base.pos, base, t.text, children=(base,))
        return base

    def primary(self) -> Node:
        t = self.tok
        if t.kind == "int":
            self.advance()
            return self.node("int", t.pos, int(t.text))
        if t.kind == "kw" and t.text in ("true", "false"):
            self.advance()
            return self.node("bool", t.pos, t.text == "true")
        if t.kind in ("suit", "color"):
            self.advance()
            return self.node(t.kind, t.pos, t.text)
        if t.kind == "name":
            self.advance()
            if self.at_op("("):
                self.advance()
                args: list[Node] = []
                if not self.at_op(")"):
                    args.append(self.expr())
                    while self.at_op(","):
                        self.advance()
                        args.append(self.expr())
                self.expect("op", ")", "',' or ')' after the arguments")
                return self.node("call", t.pos, t.text, tuple(args), children=tuple(args))
            return self.node("name", t.pos, "prev" if t.text == "prev1" else t.text)
        if t.kind == "kw" and t.text == "case":
            return self.case()
        if t.kind == "op" and t.text == "(":
            self.advance()
            self.enter()
            try:
                inner = self.expr()
            finally:
                self.leave()
            self.expect("op", ")", "')'")
            return inner
        raise self.fail(f"Expected a value, found {_describe(t)}.")

    def case(self) -> Node:
        t = self.advance()
        self.enter()
        try:
            subject = self.expr()
            self.expect("kw", "of", "'of' after the case subject")
            arms: list[tuple[tuple[Const, ...] | None, Node]] = []
            while True:
                if arms and arms[-1][0] is None:
                    raise self.fail("'else' must be the last arm of a case.")
                labels: tuple[Const, ...] | None
                if self.at_kw("else"):
                    self.advance()
                    labels = None
                else:
                    items = [self.constant()]
                    while self.at_op(","):
                        self.advance()
                        items.append(self.constant())
                    labels = tuple(items)
                self.expect("op", "->", "'->' after the case labels")
                arms.append((labels, self.expr()))
                if not self.at_op("|"):
                    break
                self.advance()
            self.expect("kw", "end", "'|' or 'end' in the case")
        finally:
            self.leave()
        kids = (subject, *(body for _, body in arms))
        return self.node("case", t.pos, subject, tuple(arms), children=kids)

    def constant(self) -> Const:
        t = self.tok
        if t.kind == "int":
            self.advance()
            return self.const("int", int(t.text), t.pos)
        if t.kind == "op" and t.text == "-" and self.tokens[self.i + 1].kind == "int":
            self.advance()
            return self.const("int", -int(self.advance().text), t.pos)
        if t.kind == "kw" and t.text in ("true", "false"):
            self.advance()
            return self.const("bool", t.text == "true", t.pos)
        if t.kind in ("suit", "color"):
            self.advance()
            return self.const(t.kind, t.text, t.pos)
        raise self.fail(
            "Expected a constant (a number, true, false, a suit or a colour), "
            f"found {_describe(t)}."
        )


def parse(source: str) -> tuple[list[Node], Pos]:
    """The statements of a source (NFC-normalised here) and the position of its end;
    raises :class:`ErlError`."""
    parser = Parser(tokenize(normalise(source)))
    statements = parser.program()
    return statements, parser.tok.pos
