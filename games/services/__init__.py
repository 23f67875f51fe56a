"""Every write to a game, by responsibility: gathering players, play, the clock,
players' preferences, notifications queued after commit, games needing attention."""
