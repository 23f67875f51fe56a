"""The transactional outbox: the Celery tasks a write calls for, stored in the write's
own transaction and handed to the broker from there (``outbox/services.py``)."""
