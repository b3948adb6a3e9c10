"""The table in a browser (``meeple serve``, the optional extra ``meeple[web]``).

Rooms: ``timeline`` (a line of play with checkpoints, so any step shows quickly),
``table`` (one game: seats and their tokens, what each seat was told, bots),
``server`` (the tables of one pack, forks, logs and scenarios), ``pages`` and
``drawer`` (the HTML, made on the server from what a seat may know), ``app`` (the
Starlette application and its bounds). Starlette is imported only by ``app``.
"""
