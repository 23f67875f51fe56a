"""Kobayakawa's statistics: none of its own yet. What every game has is stored for
it as for any other (``games/services/results.py``): its finishing order (the
winners, then everyone by medals: the rules' ``standings``) and each player's
decisions."""

from games.kinds.stats import KindStats

STATS = KindStats()
