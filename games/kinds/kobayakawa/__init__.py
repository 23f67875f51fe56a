"""Kobayakawa: ``engine/`` (the rules, pure Python), ``words.py``, ``stats.py``,
``templates/kobayakawa/``, put together in ``kind.py``."""
