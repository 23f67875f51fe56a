"""The generic rules engine: pure Python, no Django.

What every game shares lives here: events (``events.py``), awaited decisions and
the spec of each kind of decision (``decisions.py``), the dealer of random
outcomes (``dealer.py``), the one error a refused command raises (``errors.py``),
the command prelude and the fold (``common.py``), the scenario runner
(``scenario.py``), random playouts and the benchmark (``playout.py``,
``bench.py``). Each game's own rules are in ``games/kinds/<kind>/engine/``; the
registry in ``games/kinds/__init__.py`` finds them by name.
"""

from games.engine.errors import IllegalMove
from games.engine.events import Event

__all__ = ["Event", "IllegalMove"]
