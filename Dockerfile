FROM python:3.13-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . .
RUN pip install . \
 && SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" DEBUG=0 \
    python manage.py collectstatic --noinput \
 && useradd --system --uid 1000 coup \
 && mkdir -p var/mailbox && chown -R coup var

USER coup
EXPOSE 8000
CMD ["gunicorn", "coupsite.wsgi", "--bind", "0.0.0.0:8000"]
