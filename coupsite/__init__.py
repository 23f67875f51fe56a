"""Django project package for the Coup play-by-email service."""
