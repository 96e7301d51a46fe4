"""What one more round trip to PostgreSQL costs: CPU of this process (psycopg, prepared
statements as in production) and of its backend, and wall time, per extra ``SELECT 1`` in
a transaction. Transactions of 1 and of 3 statements alternate; half the difference is
the cost of one statement's round trip.

    .venv/bin/python -m loadtest.roundtrip --dsn "host=127.0.0.1 dbname=test"

It decides whether a change that saves a statement per move is worth its code: see
docs/performance.md ("Checked afterwards").
"""

from __future__ import annotations

import argparse
import statistics
import time

import psycopg

from loadtest.run import process_cpu_seconds


def _per_transaction(
    conn: psycopg.Connection[tuple[int]], transactions: int, statements: int
) -> tuple[float, float, float]:
    """Microseconds per transaction: this process's CPU, the backend's CPU, wall time."""
    pid = conn.info.backend_pid
    cursor = conn.cursor()
    cpu, backend, wall = time.process_time(), process_cpu_seconds(pid), time.perf_counter()
    for _ in range(transactions):
        for _ in range(statements):
            cursor.execute("SELECT 1")
            cursor.fetchall()
        conn.commit()
    return (
        (time.process_time() - cpu) / transactions * 1e6,
        (process_cpu_seconds(pid) - backend) / transactions * 1e6,
        (time.perf_counter() - wall) / transactions * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dsn", default="host=127.0.0.1 dbname=test")
    parser.add_argument("--transactions", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows: list[tuple[float, ...]] = []
    with psycopg.connect(args.dsn, autocommit=False, prepare_threshold=2) as conn:
        for _ in range(args.runs):
            one = _per_transaction(conn, args.transactions, 1)
            three = _per_transaction(conn, args.transactions, 3)
            row = tuple((b - a) / 2 for a, b in zip(one, three, strict=True))
            rows.append(row)
            print(f"per extra statement: {_micros(row)}")
    medians = tuple(statistics.median(column) for column in zip(*rows, strict=True))
    print(f"median: {_micros(medians)}")


def _micros(row: tuple[float, ...]) -> str:
    client, backend, wall = row
    return f"client {client:.0f} µs, backend {backend:.0f} µs, wall {wall:.0f} µs"


if __name__ == "__main__":
    main()
