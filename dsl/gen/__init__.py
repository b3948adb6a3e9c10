"""The generated-Python back end, by concern (``meeple.dsl.pygen.PyGen`` puts them together).

- ``module``: the one module of a pack: made names, values bound to them, the functions'
  text and comments, one ``compile()``, the line table and ``linecache``.
- ``runs``: which statements run as one piece of Python, and which procedures run in place.
- ``expressions`` (with ``names``, ``operators`` and ``walks``): an expression as Python source.
- ``statements``: a run of statements that never pauses as one function.
- ``instructions``: the instructions that ask a player, branch or start a walk, generated.
- ``menus``: one function per action group listing its legal actions.
"""
