"""Emails: one function per email (``emails``), replies by email (``inbound``),
the signed links in them (``tokens``) and the pages those links open (``views``)."""
