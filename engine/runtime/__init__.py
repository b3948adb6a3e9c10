"""The compiled game: its state, the flow of phases and turns, decisions, each seat's view and the re-deal of what a seat cannot see."""
