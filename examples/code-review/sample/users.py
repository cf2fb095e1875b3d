"""User lookups against the shop's SQLite database."""
import sqlite3


def find_user(connection: sqlite3.Connection, name: str):
    cursor = connection.execute(f"SELECT id, name, email FROM users WHERE name = '{name}'")
    return cursor.fetchone()


def count_users(connection: sqlite3.Connection) -> int:
    return connection.execute("SELECT count(*) FROM users").fetchone()[0]
