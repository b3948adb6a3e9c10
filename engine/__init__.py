"""meeple: a rules-as-data engine for modern board games.

The engine package holds the generic runtime (pack loading, model, state,
flow, decisions, agents, simulation, CLI). It knows nothing of any one game:
games are content packs under ``content/``.
"""

__version__ = "0.1.0"
