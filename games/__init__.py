"""Games: the rules engine (games.engine, pure Python) and its Django side."""
