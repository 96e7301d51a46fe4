"""``python manage.py sweep_deadlines [--loop] [--interval SECONDS]``.

One pass of games.deadlines.sweep (reminders, autopilot moves on expired turns, held
emails, webhook retries, stalled games), or, with ``--loop``, one pass every interval
until interrupted: the embedded default's stand-in for Celery beat.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError

from games import deadlines


class Command(BaseCommand):
    help = "Handle due turn deadlines, reminders, held emails and webhook retries."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="sweep again every interval")
        parser.add_argument(
            "--interval",
            type=float,
            default=settings.DEADLINE_SWEEP_SECONDS,
            help="seconds between sweeps with --loop (default: DEADLINE_SWEEP_SECONDS)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._sweep(loop=options["loop"], interval=options["interval"])
        except KeyboardInterrupt:
            self.stdout.write("sweep_deadlines stopped")

    def _sweep(self, *, loop: bool, interval: float) -> None:
        while True:
            try:
                result = deadlines.sweep()
            except DatabaseError as exc:
                if not loop:
                    raise
                # A busy or restarting database: try again at the next pass.
                self.stderr.write(f"sweep failed, retrying in {interval:g} s: {exc}")
                time.sleep(interval)
                continue
            if any(result.as_dict().values()) or not loop:
                summary = " ".join(f"{k}={v}" for k, v in result.as_dict().items())
                self.stdout.write(f"sweep: {summary}")
            if not loop:
                return
            time.sleep(interval)
