"""Kobayakawa: ``engine/`` (the rules, pure Python), ``words/``, ``bots.py``,
``templates/kobayakawa/``, put together in ``kind.py``."""
