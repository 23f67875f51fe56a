export DATABASE_URL=postgres://postgres@127.0.0.1:5432/coup_delete
export REDIS_URL=redis://127.0.0.1:6379/3
export DEBUG=1
