"""The running rules program as plain data: frames (which code, where in it,
its locals), the decision a program is waiting on, and the no-answer marker.

The compiled rules create and resume these; the engine's state holds them
(``engine.state`` re-exports them), which is what lets a game suspend on a
decision and be cloned, saved or sent to another process meanwhile.
"""
from __future__ import annotations

from typing import Optional


class Frame:
    """One running piece of rules: which code, where in it, its locals."""

    __slots__ = ("code", "pc", "locals", "me", "this")

    def __init__(self, code: int, pc: int, locals_: list, me: int, this: int):
        self.code = code
        self.pc = pc
        self.locals = locals_
        self.me = me
        self.this = this

    def copy(self) -> "Frame":
        return Frame(self.code, self.pc, self.locals[:], self.me, self.this)

    def to_json(self) -> list:
        return [self.code, self.pc, self.locals[:], self.me, self.this]

    @staticmethod
    def from_json(data: list) -> "Frame":
        return Frame(data[0], data[1], list(data[2]), data[3], data[4])


class Decision:
    """Who must choose, the prompt, and the legal options as (key, label, value)."""

    __slots__ = ("player", "prompt", "options", "kind", "used")

    def __init__(self, player: int, prompt: str, options: list, kind: str, used: Optional[dict] = None):
        self.player = player
        self.prompt = prompt
        self.options = options
        self.kind = kind
        self.used = used      # action decisions: uses per action this turn, to explain refusals

    def keys(self) -> list[str]:
        return [o[0] for o in self.options]

    def to_json(self) -> dict:
        return {"player": self.player, "prompt": self.prompt, "kind": self.kind, "options": [list(o) for o in self.options],
                "used": self.used}

    @staticmethod
    def from_json(data: dict) -> "Decision":
        return Decision(data["player"], data["prompt"], [list(o) for o in data["options"]], data["kind"], data.get("used"))


class _NoAnswer:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_ANSWER"

    def __reduce__(self) -> str:
        # Pickled by name, so a state sent to a worker process still holds *the*
        # marker (the rules test ``answer is not NO_ANSWER``).
        return "NO_ANSWER"


NO_ANSWER = _NoAnswer()
