"""The PostgreSQL migrations: the same numbered history as the SQLite files one folder up."""
