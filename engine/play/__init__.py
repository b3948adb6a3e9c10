"""Who chooses: agents, the planning bots, the terminal, and sessions that play, log and replay games."""
